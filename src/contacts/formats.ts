// The file formats contacts are written and read in, one list each: the export and import
// commands check --format against these, and shell completion offers them (without loading the
// writers and readers).

export const EXPORT_FORMATS = ['vcf', 'csv', 'json', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What --format may ask of an import: a format, or auto (told from the file). */
export const IMPORT_FORMATS = ['auto', 'vcf', 'csv'] as const;
export type ImportFormat = Exclude<(typeof IMPORT_FORMATS)[number], 'auto'>;

/** The newest mtime (ms) of what the bundle at `root` is made of. */
export function newestInput(root: string): number;

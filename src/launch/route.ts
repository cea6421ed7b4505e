// Which bundle a command line runs from (bin/tickbook): the dashboard's script, which starts from
// V8's code cache, or the ES modules, which load only the command's own code. Kept apart from
// the script's runner so that deciding costs the other commands (shell completion on every Tab)
// no more than this module.

/** Whether `args` (after `tickbook`) open the dashboard: none, or its options without a command. */
export function opensDashboard(args: readonly string[]): boolean {
  const [first] = args;
  return first === undefined || (first.startsWith('-') && !['-h', '--help', '--version'].includes(first));
}

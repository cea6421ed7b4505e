// The command line: routes to a subcommand; usage errors exit 2, failures exit 1.
import { serve, SERVE_HELP } from './serve.js';
import { UsageError } from './usage.js';

const HELP = `Usage: tickbook [command] [options]

A keyboard-driven terminal dashboard: your contacts beside a live stock watch window.

Commands:
  (none)        open the dashboard (for now: starts the sandbox, see below)
  serve         run the sandbox server of the whole interface

Options:
  -h, --help    show this help (tickbook COMMAND --help for a command's options)
  --version     print the version

Run 'tickbook serve --help' for the sandbox's options.
`;

async function version(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

async function run(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
      // The dashboard lands in a later release; until then the sandbox is what runs.
      process.stderr.write(
        'tickbook: the dashboard is not built yet, so this starts the sandbox server instead (tickbook serve)\n',
      );
      return serve([]);
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(rest[0] === 'serve' ? SERVE_HELP : HELP);
      return 0;
    case '--version':
      process.stdout.write(`${await version()}\n`);
      return 0;
    case 'serve':
      return serve(rest);
    default:
      throw new UsageError(
        command.startsWith('-') ? `unknown option ${command}` : `unknown command ${JSON.stringify(command)}`,
      );
  }
}

try {
  process.exitCode = await run(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) {
    process.stderr.write(`tickbook: ${error.message} (see tickbook --help)\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`tickbook: ${(error as Error).message ?? String(error)}\n`);
    process.exitCode = 1;
  }
}

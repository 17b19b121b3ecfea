import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { runAudit } from './audit.ts';
import { runCode } from './code.ts';
import { UsageError } from './files.ts';
import type { CliIO } from './io.ts';
import { runOrders } from './orders.ts';
import { redactingStream, secretsOf } from './redact.ts';
import { EXIT, runSkus } from './skus.ts';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 256)
    throw new InvalidArgumentError('must be an integer from 1 to 256');
  return n;
}

function milliseconds(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 600_000)
    throw new InvalidArgumentError('must be a number of milliseconds from 1 to 600000');
  return n;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function withConnection(cmd: Command): Command {
  return cmd
    .option('--base-url <url>', 'V2 base URL ending in /v2 (default: env PARTNER_PRINT_BASE_URL)')
    .addOption(
      new Option('--secret-key <key>', 'V2 secret key (prefer env PARTNER_PRINT_SECRET_KEY; never printed)'),
    )
    .option('--sandbox', 'run against an embedded in-process sandbox (needs @partner-print/sandbox)')
    .option(
      '--concurrency <n>',
      'requests in flight at most (the rate-limit scheduler paces them)',
      positiveInt,
      8,
    )
    .option(
      '--timeout <ms>',
      'give up on a request attempt after this many milliseconds (default 30000)',
      milliseconds,
    )
    .option('--verbose', 'log every request, retry and failure on stderr (never the key)')
    .option('--cache <file>', 'persistent SKU cache (append-only JSONL), shared between runs')
    .option(
      '--no-progress',
      'no progress bar (it is also off when stderr is not a terminal, and with --json)',
    )
    .option('--json', 'print a JSON summary on stdout');
}

function skusCommand(program: Command, io: CliIO, done: (code: number) => void): void {
  withConnection(
    program
      .command('skus')
      .description(
        'Resolve legacy SKUs (CSV with a sku column, or JSONL) to V2 product references. Resumable: an interrupted run continues where it stopped.',
      )
      .argument('<file>', 'CSV or JSONL file of legacy SKUs')
      .option(
        '-o, --output <file>',
        'output file (default: beside <file>, its name without the extension + .products.jsonl: skus.csv gives skus.products.jsonl)',
      )
      .option('--format <format>', 'input format, csv or jsonl (default: from the extension)')
      .option('--output-format <format>', 'csv or jsonl (default: from --output, else jsonl)')
      .option('--state <file>', 'resume state file (default: <output>.state.json)')
      .option('--restart', 'ignore the state of an interrupted run and start over')
      .option('--no-sharing', 'do not read GET /items to explain SKUs shared by several products'),
  ).action(async (file: string, opts) => done(await runSkus(file, opts, io)));
}

function ordersCommand(program: Command, io: CliIO, done: (code: number) => void): void {
  withConnection(
    program
      .command('orders')
      .description(
        'Convert V1 orders (JSONL, one order per line) to V2 order requests. Dry run by default; --submit creates them exactly once (customIdentifier = partner_reference, or derived from the line).',
      )
      .argument('<file>', 'JSONL file of V1 orders')
      .option('--submit', 'create the orders (a rerun creates no duplicates)')
      .option('-o, --output <file>', 'V2 requests, one per line (default: <file>.v2.jsonl)')
      .option('--report <file>', 'per-line report (default: <file>.report.jsonl)')
      .option(
        '--store-reference <ref>',
        'Store_ reference for orders without store_reference or a known store_code',
      )
      .option(
        '--store <code=ref>',
        'map a V1 store_code to a Store_ reference (repeatable, or comma-separated)',
        collect,
      )
      .option(
        '--redis <url>',
        'share order claims through Redis, so several processes can submit the same orders',
      ),
  ).action(async (file: string, opts) => done(await runOrders(file, opts, io)));
}

function auditCommand(program: Command, io: CliIO, done: (code: number) => void): void {
  program
    .command('audit')
    .description(
      'Scan a V1 integration for V1 endpoints, credential headers, callback handlers and snake_case fields; print a checklist with V2 equivalents and file:line.',
    )
    .argument('<dir>', 'directory with the integration source')
    .option('--json', 'print the findings as JSON')
    .action(async (dir: string, opts) => done(await runAudit(dir, opts, io)));
}

function codeCommand(program: Command, io: CliIO, done: (code: number) => void): void {
  program
    .command('code')
    .description(
      'Rewrite the V1 calls of JavaScript/TypeScript sources into V2 SDK calls; mark what cannot be proven with a TODO comment. Dry run (a unified diff) by default.',
    )
    .argument('<paths...>', 'files or directories with the integration source')
    .option('--dry', 'print the unified diff and the report; change nothing (default)')
    .option('--write', 'rewrite the files in place')
    .option('--check', 'only report; exit 1 while V1 usage remains (for CI)')
    .option(
      '--key-expression <expr>',
      "where the rewritten code reads the V2 secret key (default: process.env.PARTNER_PRINT_SECRET_KEY ?? '')",
    )
    .option(
      '--store <code=ref>',
      'map a V1 store_code to a Store_ reference (repeatable, or comma-separated)',
      collect,
    )
    .option(
      '--skus <file>',
      'the file the skus command wrote: a literal SKU it resolved becomes its Product_ reference in the code',
    )
    .option(
      '--no-progress',
      'no progress bar (it is also off when stderr is not a terminal, and with --json)',
    )
    .option('--json', 'print the result as JSON')
    .action(async (paths: string[], opts) => done(await runCode(paths, opts, io)));
}

const HELP_AFTER = `
Exit codes: 0 ok, 1 some lines failed, 2 usage error, 130 interrupted.
(code: 1 also when a file did not parse, and with --check while V1 usage remains.)
Examples:
  partner-print-migrate skus skus.csv --sandbox
  PARTNER_PRINT_SECRET_KEY=... partner-print-migrate orders v1-orders.jsonl --base-url https://…/v2 --submit
  partner-print-migrate audit ./my-v1-integration
  partner-print-migrate code src --store SHOP1=Store_… --write`;

function buildProgram(io: CliIO, done: (code: number) => void): Command {
  const program = new Command('partner-print-migrate')
    .description(
      'Helpers for moving a Partner Print V1 integration to API V2: resolve legacy SKUs, convert (and submit) V1 orders, audit source code.',
    )
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .showHelpAfterError('(run with --help for usage)');
  skusCommand(program, io, done);
  ordersCommand(program, io, done);
  auditCommand(program, io, done);
  codeCommand(program, io, done);
  program.addHelpText('after', HELP_AFTER);
  return program;
}

function exitCodeOf(e: unknown, io: CliIO): number {
  if (e instanceof CommanderError) {
    const help = ['commander.helpDisplayed', 'commander.version', 'commander.help'];
    return help.includes(e.code) ? EXIT.ok : EXIT.usage;
  }
  io.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
  return e instanceof UsageError ? EXIT.usage : EXIT.failures;
}

/**
 * Runs `partner-print-migrate` with the given arguments (without `node` and the script) and returns
 * the exit code: 0 ok, 1 some lines failed, 2 usage error (bad option, missing file, no or refused key),
 * 130 interrupted (rerun `skus` to resume). Nothing it writes holds the secret key.
 */
export async function runCli(argv: string[], rawIo: CliIO): Promise<number> {
  const secrets = secretsOf(argv, rawIo.env);
  const io: CliIO = {
    ...rawIo,
    stdout: redactingStream(rawIo.stdout, secrets),
    stderr: redactingStream(rawIo.stderr, secrets),
  };
  let code: number = EXIT.ok;
  const program = buildProgram(io, (c) => {
    code = c;
  });
  try {
    if (argv.length === 0) {
      program.outputHelp({ error: true });
      return EXIT.usage;
    }
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (e) {
    return exitCodeOf(e, io);
  }
}

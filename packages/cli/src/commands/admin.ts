import { adminAudit, adminCashier, DEFAULT_DATA_DIR } from '@felt/server';
import { writeLine } from '../lines.js';
import type { Command } from './command.js';

const USAGE =
  'usage: felt admin audit [--data DIR]\n' +
  '       felt admin credit|debit --user NAME --amount CENTS [--data DIR]\n' +
  '  audit: checks that no chip was created or lost; prints {"conserved": …, …} (exit 1 if not conserved)\n' +
  '  credit, debit: the real-money cashier; prints the new balances (exit 1 on an error)\n';

export type AdminArgs =
  | { readonly command: 'audit'; readonly dataDir: string }
  | {
      readonly command: 'credit' | 'debit';
      readonly dataDir: string;
      readonly user: string;
      /** The amount as given; checked by {@link parseAmount}. */
      readonly amount: string;
    };

type Flag = 'data' | 'user' | 'amount';

/** Reads the arguments; a message when they are wrong. */
export function parseAdminArgs(args: readonly string[]): AdminArgs | string {
  const [command, ...rest] = args;
  if (command !== 'audit' && command !== 'credit' && command !== 'debit') {
    return command === undefined ? 'a subcommand is required' : `unknown subcommand ${command}`;
  }
  const allowed: readonly Flag[] = command === 'audit' ? ['data'] : ['data', 'user', 'amount'];
  const values = new Map<Flag, string>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const match = /^--([a-z]+)(?:=(.*))?$/.exec(arg);
    const flag = allowed.find((name) => name === match?.[1]);
    if (match === null || flag === undefined) return `unknown argument ${arg}`;
    if (values.has(flag)) return `--${flag} given twice`;
    const value = match[2] ?? rest[++i];
    if (value === undefined) return `--${flag} needs a value`;
    values.set(flag, value);
  }
  const dataDir = values.get('data') ?? DEFAULT_DATA_DIR;
  if (command === 'audit') return { command, dataDir };
  const user = values.get('user');
  const amount = values.get('amount');
  if (user === undefined) return '--user is required';
  if (amount === undefined) return '--amount is required';
  return { command, dataDir, user, amount };
}

/** Whole cents above zero, written as digits; anything else is refused. */
export function parseAmount(text: string): number | null {
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

const errorLine = (code: string, message: string): string =>
  JSON.stringify({ ok: false, error: { code, message } });

export const admin: Command = {
  async run(args) {
    if (args.length === 0 || args[0] === '--help' || args[0] === 'help') {
      process.stderr.write(USAGE);
      return args.length === 0 ? 2 : 0;
    }
    const parsed = parseAdminArgs(args);
    if (typeof parsed === 'string') {
      await writeLine(errorLine('BAD_REQUEST', parsed));
      process.stderr.write(USAGE);
      return 1;
    }
    if (parsed.command === 'audit') {
      const outcome = await adminAudit(parsed.dataDir);
      await writeLine(JSON.stringify(outcome.output));
      return outcome.exitCode;
    }
    const amount = parseAmount(parsed.amount);
    if (amount === null) {
      await writeLine(
        errorLine('BAD_AMOUNT', `--amount takes whole cents above 0, got ${JSON.stringify(parsed.amount)}`),
      );
      return 1;
    }
    const outcome = await adminCashier(parsed.dataDir, parsed.command, parsed.user, amount);
    await writeLine(JSON.stringify(outcome.output));
    return outcome.exitCode;
  },
};

import {
  adminAudit,
  adminCashier,
  adminGrant,
  adminIntegrity,
  adminMute,
  adminRevoke,
  DEFAULT_DATA_DIR,
  editTournamentFile,
  isPostgresUrl,
  loadTournamentFile,
  openMigratedPostgresStorage,
  STAFF_ROLES,
  type AdminDatabase,
  type StaffRole,
  type TournamentEntry,
} from '@felt/server';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeLine } from '../lines.js';
import type { Command } from './command.js';

const USAGE =
  'usage: felt admin audit [--data DIR | --db postgres://…]\n' +
  '       felt admin integrity [--data DIR | --db postgres://…]\n' +
  '       felt admin credit|debit --user NAME --amount CENTS [--data DIR | --db postgres://…]\n' +
  '       felt admin grant NAME operator|admin [--data DIR | --db postgres://…]\n' +
  '       felt admin revoke NAME [--data DIR | --db postgres://…]\n' +
  '       felt admin mute|unmute NAME [--data DIR | --db postgres://…]\n' +
  '       felt admin tournament create FILE.json | cancel RUN_ID | list [--data DIR]\n' +
  '       felt admin migrate --db postgres://…\n' +
  "  the room's database: DIR/felt.db (default ./data), or the PostgreSQL database of --db\n" +
  "  audit: checks that no chip was created or lost, and the staff audit log's hash chain;\n" +
  '    prints {"conserved": …, …, "staffLog": {"intact": …}} (exit 1 if not conserved or not intact)\n' +
  '  integrity: the game-security reports from the stored hand histories, one JSON document (docs/operators.md)\n' +
  '  credit, debit: the real-money cashier; prints the new balances (exit 1 on an error)\n' +
  '  grant: makes NAME staff (no real money; signs in with a TOTP code); prints the otpauth:// key once\n' +
  '  revoke: makes NAME a player again; both end his sessions\n' +
  "  mute: silences NAME at every table's chat (he keeps playing); unmute lets him chat again\n" +
  "  migrate: creates or updates the room's tables and exits (as the database's owner role, so that the\n" +
  '    room itself may run on a role that only reads and writes them; docs/deploy.md#postgresql)\n' +
  '  tournament: edits the tournaments of the table file DIR/tables.json, which the running room reads\n' +
  '    again every 10 s — create adds the entry of FILE.json ({id, definition, schedule?, clocks?});\n' +
  '    cancel lists a run (id as tournament-list gives it) to cancel, every buy-in and fee back; list prints them\n';

/** The data directory, and the PostgreSQL URL that replaces it when given (`--db`). */
interface Where {
  readonly dataDir: string;
  readonly db?: string;
}

export type AdminArgs =
  | ({ readonly command: 'audit' } & Where)
  | { readonly command: 'migrate'; readonly dataDir: string; readonly db: string }
  | ({ readonly command: 'integrity' } & Where)
  | ({
      readonly command: 'credit' | 'debit';
      readonly user: string;
      /** The amount as given; checked by {@link parseAmount}. */
      readonly amount: string;
    } & Where)
  | ({ readonly command: 'grant'; readonly user: string; readonly role: StaffRole } & Where)
  | ({ readonly command: 'revoke'; readonly user: string } & Where)
  | ({ readonly command: 'mute'; readonly user: string } & Where)
  | ({ readonly command: 'unmute'; readonly user: string } & Where)
  | ({
      readonly command: 'tournament';
      readonly action: 'create' | 'cancel' | 'list';
      /** create: the entry's file; cancel: the run's id. */
      readonly target?: string;
    } & Where);

const SUBCOMMANDS = [
  'audit',
  'integrity',
  'credit',
  'debit',
  'grant',
  'revoke',
  'mute',
  'unmute',
  'tournament',
  'migrate',
] as const;
const TOURNAMENT_ACTIONS = ['create', 'cancel', 'list'] as const;

type Flag = 'data' | 'db' | 'user' | 'amount';

/** Reads the arguments; a message when they are wrong. */
export function parseAdminArgs(args: readonly string[]): AdminArgs | string {
  const [given, ...rest] = args;
  const command = SUBCOMMANDS.find((known) => known === given);
  if (command === undefined) {
    return given === undefined ? 'a subcommand is required' : `unknown subcommand ${given}`;
  }
  const allowed: readonly Flag[] =
    command === 'credit' || command === 'debit' ? ['data', 'db', 'user', 'amount'] : ['data', 'db'];
  const values = new Map<Flag, string>();
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (!arg.startsWith('-')) {
      positional.push(arg);
      continue;
    }
    const match = /^--([a-z]+)(?:=(.*))?$/.exec(arg);
    const flag = allowed.find((name) => name === match?.[1]);
    if (match === null || flag === undefined) return `unknown argument ${arg}`;
    if (values.has(flag)) return `--${flag} given twice`;
    const value = match[2] ?? rest[++i];
    if (value === undefined) return `--${flag} needs a value`;
    values.set(flag, value);
  }
  const db = values.get('db');
  if (db !== undefined && values.has('data')) return '--data and --db: one or the other';
  if (db !== undefined && !isPostgresUrl(db)) return '--db takes a postgres:// or postgresql:// URL';
  const where: Where = {
    dataDir: values.get('data') ?? DEFAULT_DATA_DIR,
    ...(db !== undefined ? { db } : {}),
  };
  if (command === 'tournament') {
    if (db !== undefined) return 'tournament edits the table file of --data, not a database';
    const [actionText, target, extra] = positional;
    const action = TOURNAMENT_ACTIONS.find((known) => known === actionText);
    if (action === undefined) return 'tournament needs create FILE, cancel RUN_ID or list';
    if (action !== 'list' && target === undefined)
      return `tournament ${action} needs its ${action === 'create' ? 'FILE' : 'RUN_ID'}`;
    const unknown = action === 'list' ? target : extra;
    if (unknown !== undefined) return `unknown argument ${unknown}`;
    return { command, ...where, action, ...(target !== undefined ? { target } : {}) };
  }
  const named = command === 'revoke' || command === 'mute' || command === 'unmute';
  const positionals = command === 'grant' ? 2 : named ? 1 : 0;
  if (positional.length > positionals) return `unknown argument ${positional[positionals]!}`;
  if (command === 'audit' || command === 'integrity') return { command, ...where };
  // SQLite's one process migrates its file as it starts; only a shared database has roles to split.
  if (command === 'migrate')
    return db === undefined ? 'migrate needs --db postgres://…' : { command, ...where, db };
  if (command === 'grant' || named) {
    const [user, roleText] = positional;
    if (user === undefined) return `${command} needs the account's NAME`;
    if (named) return { command, ...where, user };
    const role = STAFF_ROLES.find((known) => known === roleText);
    if (role === undefined) return 'grant needs a role: operator or admin';
    return { command, ...where, user, role };
  }
  const user = values.get('user');
  const amount = values.get('amount');
  if (user === undefined) return '--user is required';
  if (amount === undefined) return '--amount is required';
  return { command, ...where, user, amount };
}

/** Whole cents above zero, written as digits; anything else is refused. */
export function parseAmount(text: string): number | null {
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

const databaseOf = (where: Where): AdminDatabase =>
  where.db !== undefined ? { url: where.db } : where.dataDir;

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
    if (parsed.command === 'audit' || parsed.command === 'integrity') {
      const report = parsed.command === 'audit' ? adminAudit : adminIntegrity;
      const outcome = await report(databaseOf(parsed));
      await writeLine(JSON.stringify(outcome.output));
      return outcome.exitCode;
    }
    if (parsed.command === 'mute' || parsed.command === 'unmute') {
      const outcome = await adminMute(databaseOf(parsed), parsed.user, parsed.command === 'mute');
      await writeLine(JSON.stringify(outcome.output));
      return outcome.exitCode;
    }
    if (parsed.command === 'grant' || parsed.command === 'revoke') {
      const outcome =
        parsed.command === 'grant'
          ? await adminGrant(databaseOf(parsed), parsed.user, parsed.role)
          : await adminRevoke(databaseOf(parsed), parsed.user);
      await writeLine(JSON.stringify(outcome.output));
      return outcome.exitCode;
    }
    if (parsed.command === 'tournament') return tournamentCommand(parsed);
    if (parsed.command === 'migrate') {
      try {
        await (await openMigratedPostgresStorage({ url: parsed.db })).close();
      } catch (error) {
        await writeLine(errorLine('MIGRATE_FAILED', error instanceof Error ? error.message : String(error)));
        return 1;
      }
      await writeLine(JSON.stringify({ ok: true }));
      return 0;
    }
    const amount = parseAmount(parsed.amount);
    if (amount === null) {
      await writeLine(
        errorLine('BAD_AMOUNT', `--amount takes whole cents above 0, got ${JSON.stringify(parsed.amount)}`),
      );
      return 1;
    }
    const outcome = await adminCashier(databaseOf(parsed), parsed.command, parsed.user, amount);
    await writeLine(JSON.stringify(outcome.output));
    return outcome.exitCode;
  },
};

/** `felt admin tournament`: the table file's tournaments, edited for the room to read at its next poll. */
async function tournamentCommand(parsed: Extract<AdminArgs, { command: 'tournament' }>): Promise<number> {
  const file = join(parsed.dataDir, 'tables.json');
  try {
    if (parsed.action === 'list') {
      const { entries, cancelled } = await loadTournamentFile(file);
      const tournaments = entries.map((e) => ({
        id: e.id,
        name: e.definition.name,
        kind: e.definition.kind,
        ...(e.schedule !== undefined ? { schedule: e.schedule } : {}),
      }));
      await writeLine(JSON.stringify({ tournaments, cancelled }));
      return 0;
    }
    const target = parsed.target!;
    if (parsed.action === 'create') {
      const entry = JSON.parse(await readFile(target, 'utf8')) as TournamentEntry;
      await editTournamentFile(file, { add: entry });
      await writeLine(JSON.stringify({ ok: true, created: entry.id }));
    } else {
      await editTournamentFile(file, { cancel: target });
      await writeLine(JSON.stringify({ ok: true, cancelled: target }));
    }
    return 0;
  } catch (error) {
    await writeLine(errorLine('BAD_TOURNAMENT', error instanceof Error ? error.message : String(error)));
    return 1;
  }
}

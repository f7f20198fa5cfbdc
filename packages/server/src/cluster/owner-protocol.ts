/**
 * What members ask a table's owner over the bus (./bus.ts), and what the owner publishes of its
 * tables. Only members speak it: the bus is the cluster's private network, never the players'.
 */
import type {
  AccountId,
  CommandResult,
  ControllerCommand,
  HandRecap,
  PlayerRef,
  TableCommand,
  TableConfig,
  TableSummary,
  TableView,
} from '../table/types.js';
import type { MemberId } from './registry.js';

export type OwnerRequest =
  | {
      readonly kind: 'handle';
      readonly tableId: string;
      readonly player: PlayerRef;
      readonly command: TableCommand;
    }
  | { readonly kind: 'control'; readonly tableId: string; readonly command: ControllerCommand }
  /** Publish the table's messages for `viewer` on `subject` (the first one its full view). */
  | {
      readonly kind: 'subscribe';
      readonly tableId: string;
      readonly viewer: AccountId | null;
      readonly subject: string;
      readonly member: MemberId;
    }
  | { readonly kind: 'unsubscribe'; readonly tableId: string; readonly subject: string }
  /** The last finished hand's summary as `viewer` may see it (the owner alone keeps it). */
  | { readonly kind: 'last-summary'; readonly tableId: string; readonly viewer: AccountId | null }
  /** The audit: the table's seats against their ledger accounts, checked where it runs (../ledger/live-stacks.ts). */
  | { readonly kind: 'check-stacks'; readonly tableId: string };

/**
 * The owner's answer, given after its fenced commit (a command's result, or the summary asked for);
 * `owner: false` when it does not run the table.
 */
export type OwnerReply =
  | { readonly owner: true; readonly result: CommandResult }
  | { readonly owner: true; readonly recap: HandRecap | null }
  /** The problems found (none: every stack paid for), or null when the table was never still enough. */
  | { readonly owner: true; readonly stackProblems: readonly string[] | null }
  | { readonly owner: false };

/** Published by each member every tick: the state of the tables it runs, for the others' lobbies. */
export interface OwnedTables {
  readonly member: MemberId;
  readonly tables: readonly {
    readonly tableId: string;
    /** Its settings: a member that does not know the table (another's lobby opened it) lists it too. */
    readonly config: TableConfig;
    readonly epoch: number;
    readonly summary: TableSummary;
    /** The spectator's view (who sits where). */
    readonly view: TableView;
  }[];
}

/** The subject of {@link OwnedTables}. */
export const OWNED_TABLES_SUBJECT = 'owned-tables';

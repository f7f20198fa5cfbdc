/**
 * The tables' chat: who may say what, and how often. Only the players seated at a table speak there
 * (everyone watching reads), as in the big rooms: a crowd of spectators cannot flood a table. A message
 * is plain text on one line; the staff may mute an account (`felt admin mute`), which is read at each
 * message so that it takes effect on a running room at once; each account has its own token bucket,
 * so that one player cannot fill the table's chat however many connections he holds.
 */
import { ErrorCode, type ChatMessage } from '@felt/protocol';
import { fail, ok, type Result } from '@felt/engine';
import type { AccountStore } from '../storage/account-store.js';
import type { PlayerRef, Table } from '../table/types.js';
import { TokenBucket, type RateLimit } from '../transport/rate-limit.js';

/** Five messages at once, then one every three seconds: a conversation, not a flood. */
export const CHAT_RATE_LIMIT: RateLimit = { perSecond: 1 / 3, burst: 5 };

export const CHAT_MAX_LENGTH = 200;

export type ChatRefusal =
  | typeof ErrorCode.BAD_MESSAGE
  | typeof ErrorCode.NOT_SEATED
  | typeof ErrorCode.MUTED
  | typeof ErrorCode.RATE_LIMITED;

/**
 * The text as it is shown: control characters (new lines among them) and runs of spaces become one
 * space, so a message cannot fake the look of another line or of a message from the room.
 */
export function cleanChatText(text: string): string {
  return text
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export class TableChat {
  readonly #accounts: Pick<AccountStore, 'userById'>;
  readonly #limit: RateLimit;
  readonly #now: () => number;
  readonly #buckets = new Map<number, TokenBucket>();

  constructor(
    accounts: Pick<AccountStore, 'userById'>,
    limit: RateLimit = CHAT_RATE_LIMIT,
    now: () => number = () => performance.now(),
  ) {
    this.#accounts = accounts;
    this.#limit = limit;
    this.#now = now;
  }

  /**
   * The message `player` says at `table`, ready to send to its watchers, or why not. A refused message
   * takes nothing from his allowance, except one refused for its rate.
   */
  async say(
    table: Table,
    player: PlayerRef,
    text: string,
    at: number,
  ): Promise<Result<ChatMessage, ChatRefusal>> {
    const clean = cleanChatText(text);
    if (clean.length === 0) return fail(ErrorCode.BAD_MESSAGE, 'text: nothing to say');
    if (clean.length > CHAT_MAX_LENGTH)
      return fail(ErrorCode.BAD_MESSAGE, `text: at most ${CHAT_MAX_LENGTH} characters`);
    const seated = table.view(null).seats.some((seat) => seat?.account === player.account);
    if (!seated) return fail(ErrorCode.NOT_SEATED, 'only the players seated at a table chat there');
    const user = await this.#accounts.userById(player.account);
    if (user === null || user.mutedAt !== null)
      return fail(ErrorCode.MUTED, "the room's staff muted this account's chat");
    if (this.#bucketOf(player.account).take() !== 'ok')
      return fail(ErrorCode.RATE_LIMITED, 'too many chat messages: wait a few seconds');
    return ok({
      op: 'chat',
      tableId: table.id,
      from: { id: player.account, name: player.name },
      text: clean,
      at,
    });
  }

  #bucketOf(account: number): TokenBucket {
    let bucket = this.#buckets.get(account);
    if (bucket === undefined) {
      bucket = new TokenBucket(this.#limit, this.#now);
      this.#buckets.set(account, bucket);
    }
    return bucket;
  }
}

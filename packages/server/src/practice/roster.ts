/**
 * The house bots' accounts: real accounts in storage (so that the ledger, the audit and crash recovery
 * treat their chips like anyone's), made on first use and reused across restarts, lent to one table at
 * a time. Their names carry a space, which no sign-up name may (the protocol's `UserName`), so no person
 * can take a house bot's name; their password hash matches no password, so nobody logs in as one.
 */
import type { Storage } from '../storage/types.js';
import type { AccountId } from '../table/types.js';

export type RosterStorage = Pick<Storage, 'userByName' | 'createUser' | 'balances' | 'topUp' | 'seats'>;

export interface HouseBotAccount {
  readonly account: AccountId;
  readonly name: string;
}

const NAMES = [
  'Ada',
  'Ben',
  'Cleo',
  'Dmitri',
  'Edda',
  'Farid',
  'Greta',
  'Hugo',
  'Ines',
  'Jonas',
  'Kiri',
  'Lev',
];

/** The n-th house bot's name (from 0): "Bot Ada" … "Bot Lev", then "Bot Ada 2" …. */
export function houseBotName(n: number): string {
  const round = Math.floor(n / NAMES.length);
  return `Bot ${NAMES[n % NAMES.length]!}${round > 0 ? ` ${round + 1}` : ''}`;
}

/** Whether an account's name is a house bot's (no sign-up name has a space). */
export function isHouseBotName(name: string): boolean {
  return /^Bot [A-Z][a-z]+( [0-9]+)?$/.test(name);
}

export class Roster {
  readonly #storage: RosterStorage;
  readonly #idle: HouseBotAccount[] = [];
  readonly #accounts = new Set<AccountId>();
  readonly #shared: boolean;
  #made = 0;

  /**
   * `shared`: other processes lend the same accounts (a room on several processes), so an account
   * seated at any table is not lent.
   */
  constructor(storage: RosterStorage, shared = false) {
    this.#storage = storage;
    this.#shared = shared;
  }

  /** Whether the account is one of the house bots'. */
  isBot(account: AccountId): boolean {
    return this.#accounts.has(account);
  }

  /** An account no table is using: an idle one, else the next name (found in storage or created). */
  async lend(): Promise<HouseBotAccount> {
    const seated = this.#shared ? new Set((await this.#storage.seats()).map((seat) => seat.userId)) : null;
    for (let idle = this.#idle.pop(); idle !== undefined; idle = this.#idle.pop()) {
      if (seated?.has(idle.account) !== true) return idle;
    }
    for (;;) {
      const name = houseBotName(this.#made++);
      const user = (await this.#storage.userByName(name)) ?? (await this.#created(name));
      this.#accounts.add(user.id);
      if (seated?.has(user.id) !== true) return { account: user.id, name: user.name };
    }
  }

  giveBack(bot: HouseBotAccount): void {
    if (!this.#idle.some((idle) => idle.account === bot.account)) this.#idle.push(bot);
  }

  /** A house bot found seated at a table this process has just taken over: lent to that table now. */
  adopt(bot: HouseBotAccount): void {
    this.#accounts.add(bot.account);
    const at = this.#idle.findIndex((idle) => idle.account === bot.account);
    if (at >= 0) this.#idle.splice(at, 1);
  }

  /** Tops the bot's play-money balance up to `amount` from the play-money source (a ledger transaction). */
  async fund(account: AccountId, amount: number): Promise<void> {
    const { play } = await this.#storage.balances(account);
    if (play >= amount) return;
    const topped = await this.#storage.topUp(account, amount - play);
    if (!topped.ok) throw new Error(`house bot play money: ${topped.error.message}`);
  }

  async #created(name: string): Promise<{ id: AccountId; name: string }> {
    const created = await this.#storage.createUser({ name, passwordHash: '!', passwordSalt: '!' });
    if (!created.ok) throw new Error(`house bot ${name}: ${created.error.message}`);
    return created.value;
  }
}

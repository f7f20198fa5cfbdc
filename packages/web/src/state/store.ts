/**
 * The client's whole state and the requests that change it. The store owns the connection; React reads
 * it with `useSyncExternalStore` (see ../hooks.ts). Nothing here decides a rule: requests go to the
 * server, and what the server sends back is what is shown.
 */
import type {
  AccountInfo,
  Balances,
  HandHistoryPayload,
  HandListItem,
  ServerMessage,
  TableSummary,
  WireHandAction,
} from '@felt/protocol';
import { Connection, RequestError, type ConnectionStatus, type SocketFactory } from '../net/connection';
import { asEventView, asLegal, asSummary, asTableView } from '../net/views';
import { emptyTable, withClock, withEvent, withLegal, withSummary, withView, type TableState } from './table';

export interface Session {
  readonly account: AccountInfo;
  readonly token: string;
  readonly balances: Balances;
}

export interface Prefs {
  readonly fourColour: boolean;
}

export interface AppState {
  readonly status: ConnectionStatus;
  readonly session: Session | null;
  /** Every table of the lobby, in the server's order. */
  readonly lobby: readonly TableSummary[];
  /** Open tables by id, in the order opened. */
  readonly tables: Readonly<Record<string, TableState>>;
  readonly open: readonly string[];
  /** 'lobby' or a table id. */
  readonly screen: string;
  readonly waitlist: Readonly<Record<string, number>>;
  /** Seats offered to us from waiting lists: table → seat. */
  readonly offers: Readonly<Record<string, number>>;
  readonly prefs: Prefs;
  /** The last refusal or problem, shown as a toast. */
  readonly toast: string | null;
}

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface StoreOptions {
  readonly url: string;
  readonly socket?: SocketFactory;
  readonly storage?: StorageLike;
  /** Local time, for the clock bars (tests inject it). */
  readonly now?: () => number;
}

/** A copy of `record` without `key`. */
function without<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([name]) => name !== key));
}

const TOKEN_KEY = 'felt.token';
const PREFS_KEY = 'felt.prefs';

export class Store {
  private state: AppState;
  private readonly listeners = new Set<() => void>();
  private readonly connection: Connection;
  private readonly storage: StorageLike | null;
  private readonly now: () => number;
  private lobbyWanted = false;

  constructor(options: StoreOptions) {
    this.storage = options.storage ?? null;
    this.now = options.now ?? (() => Date.now());
    let prefs: Prefs = { fourColour: false };
    try {
      const saved = this.storage?.getItem(PREFS_KEY);
      if (saved != null) prefs = { ...prefs, ...(JSON.parse(saved) as Partial<Prefs>) };
    } catch {
      /* defaults */
    }
    this.state = {
      status: 'connecting',
      session: null,
      lobby: [],
      tables: {},
      open: [],
      screen: 'lobby',
      waitlist: {},
      offers: {},
      prefs,
      toast: null,
    };
    this.connection = new Connection({
      url: options.url,
      ...(options.socket === undefined ? {} : { socket: options.socket }),
      onPush: (message) => {
        this.push(message as unknown as ServerMessage);
      },
      onStatus: (status) => {
        this.set({ status });
      },
      onOpen: (reopened) => this.resume(reopened),
    });
  }

  // ── React plumbing ────────────────────────────────────────────────────────────────────────────
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };
  readonly getState = (): AppState => this.state;

  private set(patch: Partial<AppState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  private updateTable(tableId: string, change: (table: TableState) => TableState): void {
    const current = this.state.tables[tableId];
    if (current === undefined) return;
    this.set({ tables: { ...this.state.tables, [tableId]: change(current) } });
  }

  // ── Session ───────────────────────────────────────────────────────────────────────────────────
  private async resume(reopened: boolean): Promise<void> {
    const token = this.state.session?.token ?? this.storage?.getItem(TOKEN_KEY) ?? null;
    if (token === null) return;
    try {
      const ack = await this.connection.requestFirst('resume', { token });
      const data = ack['data'] as { account: AccountInfo; balances: Balances; tables: readonly string[] };
      this.set({ session: { account: data.account, token, balances: data.balances } });
      const reopen = new Set([...this.state.open, ...data.tables]);
      for (const tableId of reopen) {
        if (this.state.tables[tableId] === undefined) this.addTable(tableId);
        void this.connection.request('table-open', { tableId }).catch(() => undefined);
      }
      if (this.lobbyWanted || !reopened) void this.subscribeLobby();
    } catch (error) {
      if (error instanceof RequestError && error.code === 'BAD_TOKEN') {
        this.storage?.removeItem(TOKEN_KEY);
        this.set({ session: null });
      }
    }
  }

  async signUp(name: string, password: string): Promise<void> {
    await this.authenticate('signup', name, password);
  }

  async logIn(name: string, password: string): Promise<void> {
    await this.authenticate('login', name, password);
  }

  private async authenticate(op: 'signup' | 'login', name: string, password: string): Promise<void> {
    const ack = await this.connection.request(op, { name, password });
    const data = ack['data'] as { token: string; account: AccountInfo; balances: Balances };
    this.storage?.setItem(TOKEN_KEY, data.token);
    this.set({ session: { account: data.account, token: data.token, balances: data.balances } });
    await this.subscribeLobby();
  }

  async logOut(): Promise<void> {
    try {
      await this.connection.request('logout');
    } finally {
      this.storage?.removeItem(TOKEN_KEY);
      this.set({ session: null, tables: {}, open: [], screen: 'lobby', lobby: [] });
    }
  }

  async topUp(amount: number): Promise<void> {
    const ack = await this.guard(this.connection.request('top-up', { amount }));
    if (ack !== null) this.setBalances((ack['data'] as { balances: Balances }).balances);
  }

  private setBalances(balances: Balances): void {
    const session = this.state.session;
    if (session !== null) this.set({ session: { ...session, balances } });
  }

  // ── Lobby ─────────────────────────────────────────────────────────────────────────────────────
  async subscribeLobby(): Promise<void> {
    this.lobbyWanted = true;
    const ack = await this.guard(this.connection.request('lobby-subscribe'));
    if (ack !== null) this.set({ lobby: (ack['data'] as { tables: readonly TableSummary[] }).tables });
  }

  async joinWaitlist(tableId: string): Promise<void> {
    const ack = await this.guard(this.connection.request('waitlist-join', { tableId }));
    if (ack !== null) {
      const position = (ack['data'] as { position: number }).position;
      this.set({ waitlist: { ...this.state.waitlist, [tableId]: position } });
    }
  }

  async leaveWaitlist(tableId: string): Promise<void> {
    await this.guard(this.connection.request('waitlist-leave', { tableId }));
    this.set({ waitlist: without(this.state.waitlist, tableId) });
  }

  // ── Tables ────────────────────────────────────────────────────────────────────────────────────
  private addTable(tableId: string): void {
    this.set({
      tables: { ...this.state.tables, [tableId]: emptyTable(tableId) },
      open: this.state.open.includes(tableId) ? this.state.open : [...this.state.open, tableId],
    });
  }

  async openTable(tableId: string): Promise<void> {
    if (this.state.tables[tableId] === undefined) {
      this.addTable(tableId);
      await this.guard(this.connection.request('table-open', { tableId }));
    }
    this.set({ screen: tableId });
  }

  async closeTable(tableId: string): Promise<void> {
    const tables = without(this.state.tables, tableId);
    const open = this.state.open.filter((id) => id !== tableId);
    this.set({ tables, open, screen: this.state.screen === tableId ? 'lobby' : this.state.screen });
    await this.guard(this.connection.request('table-close', { tableId }));
  }

  show(screen: string): void {
    this.set({ screen });
  }

  /** `post`: post a big blind and play at once, or wait for the big blind; `autoPost`: post blinds without asking. */
  async takeSeat(
    tableId: string,
    seat: number,
    buyIn: number,
    post: 'post' | 'wait' = 'post',
    autoPost = true,
  ): Promise<boolean> {
    const ack = await this.guard(
      this.connection.request('seat-take', { tableId, seat, buyIn, post, autoPost }),
    );
    if (ack === null) return false;
    this.setBalances((ack['data'] as { balances: Balances }).balances);
    this.set({ offers: without(this.state.offers, tableId) });
    return true;
  }

  /** Adds chips from the balance to the stack between hands. */
  async rebuy(tableId: string, amount: number): Promise<void> {
    const ack = await this.guard(this.connection.request('rebuy', { tableId, amount }));
    if (ack !== null) this.setBalances((ack['data'] as { balances: Balances }).balances);
  }

  async leaveSeat(tableId: string): Promise<void> {
    const ack = await this.guard(this.connection.request('seat-leave', { tableId }));
    if (ack !== null) this.setBalances((ack['data'] as { balances: Balances }).balances);
  }

  async sitOut(tableId: string): Promise<void> {
    await this.guard(this.connection.request('sit-out', { tableId }));
  }

  async sitIn(tableId: string): Promise<void> {
    await this.guard(this.connection.request('sit-in', { tableId }));
  }

  async missedBlinds(tableId: string, choice: 'post' | 'wait'): Promise<void> {
    await this.guard(this.connection.request('missed-blinds', { tableId, choice }));
  }

  async autoPost(tableId: string, enabled: boolean): Promise<void> {
    await this.guard(this.connection.request('auto-post', { tableId, enabled }));
  }

  /** Answers the table's request to post a blind (auto-post off): post it, or sit out. */
  async postBlind(tableId: string, post: boolean): Promise<void> {
    await this.guard(this.connection.request('post-blind', { tableId, post }));
  }

  /** At the showdown, muck a hand a shown one already beats instead of showing it. */
  async muckLosing(tableId: string, enabled: boolean): Promise<void> {
    await this.guard(this.connection.request('muck-losing', { tableId, enabled }));
  }

  /** Sends a decision; the legal actions are cleared at once so a double click cannot send it twice. */
  async act(tableId: string, action: WireHandAction): Promise<boolean> {
    const legal = this.state.tables[tableId]?.legal ?? null;
    this.updateTable(tableId, (table) => withLegal(table, null));
    const ack = await this.guard(this.connection.request('act', { tableId, action }));
    // Refused (a stale click, a bad amount): the same decision is still open, so offer it again.
    if (ack === null)
      this.updateTable(tableId, (table) =>
        table.legal === null && table.clock !== null ? withLegal(table, legal) : table,
      );
    return ack !== null;
  }

  async historyList(): Promise<readonly HandListItem[]> {
    const ack = await this.guard(this.connection.request('history-list', { limit: 50 }));
    return ack === null ? [] : (ack['data'] as { hands: readonly HandListItem[] }).hands;
  }

  /** Asks for the last hand's summary: a player dealt in also sees the hands mucked at the showdown. */
  async askSummary(tableId: string): Promise<void> {
    const ack = await this.guard(this.connection.request('hand-summary', { tableId }));
    const summary = ack === null ? null : asSummary((ack['data'] as { summary: unknown }).summary);
    if (summary !== null) this.updateTable(tableId, (table) => withSummary(table, summary));
  }

  async historyFetch(handId: number): Promise<HandHistoryPayload | null> {
    const ack = await this.guard(this.connection.request('history-fetch', { handId }));
    return ack === null ? null : (ack['data'] as { hand: HandHistoryPayload }).hand;
  }

  setPrefs(prefs: Partial<Prefs>): void {
    const next = { ...this.state.prefs, ...prefs };
    this.storage?.setItem(PREFS_KEY, JSON.stringify(next));
    this.set({ prefs: next });
  }

  dismissToast(): void {
    this.set({ toast: null });
  }

  /** Drops the socket as a network failure would (the reconnect test and the "retry" link). */
  dropConnection(): void {
    this.connection.drop();
  }

  close(): void {
    this.connection.close();
  }

  /** Runs a request; a refusal becomes the toast and null. */
  private async guard(request: Promise<Record<string, unknown>>): Promise<Record<string, unknown> | null> {
    try {
      return await request;
    } catch (error) {
      this.set({ toast: error instanceof Error ? error.message : String(error) });
      return null;
    }
  }

  // ── Pushed messages ───────────────────────────────────────────────────────────────────────────
  private push(message: ServerMessage): void {
    switch (message.op) {
      case 'lobby-table': {
        const table = message.table;
        const lobby = this.state.lobby.some((row) => row.tableId === table.tableId)
          ? this.state.lobby.map((row) => (row.tableId === table.tableId ? table : row))
          : [...this.state.lobby, table];
        this.set({ lobby });
        return;
      }
      case 'table-snapshot': {
        const view = asTableView(message.view);
        if (view !== null) this.updateTable(message.tableId, (table) => withView(table, view));
        return;
      }
      case 'table-event': {
        const event = asEventView(message.event);
        if (event !== null)
          this.updateTable(message.tableId, (table) => withEvent(table, event, message.seq));
        return;
      }
      case 'legal-actions': {
        const legal = asLegal(message.legal);
        this.updateTable(message.tableId, (table) => (table.view === null ? table : withLegal(table, legal)));
        return;
      }
      case 'clock':
        this.updateTable(message.tableId, (table) => {
          // The action clock's length is what is left when the message arrives (the bar starts full).
          const same = table.clock?.seat === message.seat && table.clock.deadline === message.deadline;
          return withClock(table, {
            seat: message.seat,
            deadline: message.deadline,
            actionMs: same ? table.clock.actionMs : Math.max(1000, message.deadline - this.now()),
            timeBankMs: message.timeBankMs,
          });
        });
        return;
      case 'hand-summary': {
        const summary = asSummary(message.summary);
        if (summary !== null) this.updateTable(message.tableId, (table) => withSummary(table, summary));
        return;
      }
      case 'balances':
        this.setBalances(message.balances);
        return;
      case 'waitlist-seat':
        this.set({ offers: { ...this.state.offers, [message.tableId]: message.seat } });
        return;
      case 'session-ended':
        if (message.reason !== 'replaced') this.storage?.removeItem(TOKEN_KEY);
        this.set({
          session: null,
          tables: {},
          open: [],
          screen: 'lobby',
          toast: `Session ended (${message.reason})`,
        });
        return;
      case 'hello':
      case 'ack':
      case 'error':
        return;
    }
  }
}

/**
 * The client's whole state and the requests that change it. The store owns the connection; React reads
 * it with `useSyncExternalStore` (see ../hooks.ts). Nothing here decides a rule: requests go to the
 * server, and what the server sends back is what is shown.
 */
import type {
  AccountInfo,
  AckData,
  Balances,
  ClientOp,
  HandHistoryPayload,
  HandListItem,
  NoteColour,
  PlayerNoteView,
  SeatPreview,
  ServerMessage,
  TableSummary,
  TournamentDetail,
  TournamentPlace,
  TournamentSummary,
  WireHandAction,
} from '@felt/protocol';
import { DEFAULT_BET_SIZES } from '../bet-sizes';
import type { HotkeyPrefs } from '../hotkeys';
import { Connection, RequestError, type ConnectionStatus, type SocketFactory } from '../net/connection';
import { randomContribution } from '../fair';
import { asEventView, asLegal, asSummary, asTableView, type TableView } from '../net/views';
import { refusalText, tournamentOfTable } from '../tournament';
import { emptyTable, receive, withContribution, withLegal, withSummary, type TableModel } from './table';

/** Signed in: the session itself is the room's HttpOnly cookie, which no script here can read. */
export interface Session {
  readonly account: AccountInfo;
  readonly balances: Balances;
  /** When this page signed in (ms since the epoch; a reconnect keeps it): the session's statistics start there. */
  readonly startedAt: number;
}

export interface Prefs extends HotkeyPrefs {
  readonly fourColour: boolean;
  /** The bet-size buttons of big-bet tables (../bet-sizes.ts), as he wrote them. */
  readonly betSizes: string;
  /** A tone when a table starts waiting for his decision (on by default). */
  readonly sound: boolean;
  /** Players whose chat this player does not want to read (account ids), kept with his settings. */
  readonly mutedPlayers: readonly number[];
}

/** A line of a table's chat as received. */
export interface ChatLine {
  readonly from: AccountInfo;
  readonly text: string;
  readonly at: number;
}

/** A tournament page's figures and when they arrived here (local ms), for the level clock. */
export interface TournamentPageData {
  readonly detail: TournamentDetail;
  readonly at: number;
}

/** What the room told him about a tournament he plays: his table, a move, his place, the end. */
export interface TournamentPlay {
  readonly tableId: string | null;
  /** He was moved to `tableId` from another table of the tournament (the notice stays until the next seat). */
  readonly moved: boolean;
  readonly out: TournamentPlace | null;
  readonly ended: 'finished' | 'cancelled' | null;
}

const NO_PLAY: TournamentPlay = { tableId: null, moved: false, out: null, ended: null };

/** Chat lines kept per open table: the recent conversation, not an archive. */
export const CHAT_KEPT = 50;

export interface AppState {
  readonly status: ConnectionStatus;
  readonly session: Session | null;
  /** Every table of the lobby, in the server's order. */
  readonly lobby: readonly TableSummary[];
  /** Open tables by id, in the order opened. */
  readonly tables: Readonly<Record<string, TableModel>>;
  readonly open: readonly string[];
  /** 'lobby', a table id, or {@link CONSOLE_SCREEN}. */
  readonly screen: string;
  readonly waitlist: Readonly<Record<string, number>>;
  /** Seats offered to us from waiting lists: table → seat. */
  readonly offers: Readonly<Record<string, number>>;
  readonly prefs: Prefs;
  /** His notes on other players, by their account ids. */
  readonly notes: Readonly<Record<number, { readonly colour: NoteColour | null; readonly note: string }>>;
  /** Each open table's chat, oldest first. */
  readonly chat: Readonly<Record<string, readonly ChatLine[]>>;
  /** The tournament lobby: every tournament the room lists. */
  readonly tournaments: readonly TournamentSummary[];
  /** Tournament pages loaded, by tournament id. */
  readonly tournamentPages: Readonly<Record<string, TournamentPageData>>;
  /** The tournaments he plays, by tournament id. */
  readonly tournamentPlay: Readonly<Record<string, TournamentPlay>>;
  /** The last refusal or problem, shown as a toast. */
  readonly toast: string | null;
}

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The screen of the staff's console (no table id takes it: table ids have no spaces). */
export const CONSOLE_SCREEN = 'staff console';

/** The staff console's requests (the server refuses them to anyone without a staff role). */
export type StaffOp = Extract<ClientOp, `staff-${string}`>;
/** What a player asks of a tournament he plays (`Store.tournamentAct`). */
export type TournamentActOp =
  | 'tournament-rebuy'
  | 'tournament-addon'
  | 'tournament-reenter'
  | 'tournament-deal-propose'
  | 'tournament-deal-accept'
  | 'tournament-deal-decline';

/** The room's session endpoints (docs/security.md): a POST with a JSON body, its status and JSON answer. */
export type SessionHttp = (path: string, body: unknown) => Promise<{ status: number; body: unknown }>;

export interface StoreOptions {
  /** The room's WebSocket addresses, tried in turn when one fails. */
  readonly urls: readonly string[];
  readonly socket?: SocketFactory;
  readonly http: SessionHttp;
  /** Where the settings are kept (the browser's localStorage: settings are not secrets). */
  readonly storage?: StorageLike;
  /** Local time, for the clock bars (tests inject it). */
  readonly now?: () => number;
}

/** A copy of `record` without `key`. */
function without<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([name]) => name !== key));
}

const PREFS_KEY = 'felt.prefs';

export class Store {
  private state: AppState;
  private readonly listeners = new Set<() => void>();
  private readonly connection: Connection;
  private readonly storage: StorageLike | null;
  private readonly http: SessionHttp;
  private readonly now: () => number;
  private lobbyWanted = false;
  /** Per table, the commitment last contributed to: one contribution per hand. */
  private readonly contributedTo = new Map<string, string>();

  constructor(options: StoreOptions) {
    this.storage = options.storage ?? null;
    this.http = options.http;
    this.now = options.now ?? (() => Date.now());
    let prefs: Prefs = {
      fourColour: false,
      hotkeys: true,
      freeFold: 'ask',
      betSizes: DEFAULT_BET_SIZES,
      sound: true,
      mutedPlayers: [],
    };
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
      chat: {},
      notes: {},
      tournaments: [],
      tournamentPages: {},
      tournamentPlay: {},
      toast: null,
    };
    this.connection = new Connection({
      urls: options.urls,
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

  private updateTable(tableId: string, change: (table: TableModel) => TableModel): void {
    const current = this.state.tables[tableId];
    if (current === undefined) return;
    this.set({ tables: { ...this.state.tables, [tableId]: change(current) } });
  }

  // ── Session ──────────────────────────────────────────────────────────────────────────────────
  /**
   * Every (re)opened socket resumes the cookie's session, if any: a new page after the tab was closed
   * is signed in again, back at the tables where he sits (the first one shown).
   */
  private async resume(reopened: boolean): Promise<void> {
    try {
      const ack = await this.connection.requestFirst('resume');
      const data = ack['data'] as { account: AccountInfo; balances: Balances; tables: readonly string[] };
      this.set({
        session: {
          account: data.account,
          balances: data.balances,
          startedAt: this.state.session?.startedAt ?? this.now(),
        },
      });
      const fresh = this.state.open.length === 0;
      const reopen = new Set([...this.state.open, ...data.tables]);
      for (const tableId of reopen) {
        if (this.state.tables[tableId] === undefined) this.addTable(tableId);
        void this.connection.request('table-open', { tableId }).catch(() => undefined);
      }
      const first = data.tables[0];
      if (fresh && first !== undefined && this.state.screen === 'lobby') this.set({ screen: first });
      if (this.lobbyWanted || !reopened) void this.subscribeLobby();
      void this.loadNotes();
    } catch (error) {
      if (error instanceof RequestError && error.code === 'BAD_TOKEN') this.signedOut();
    }
  }

  private signedOut(toast: string | null = this.state.toast): void {
    this.lobbyWanted = false;
    this.set({
      session: null,
      tables: {},
      open: [],
      screen: 'lobby',
      lobby: [],
      chat: {},
      notes: {},
      tournaments: [],
      tournamentPages: {},
      tournamentPlay: {},
      toast,
    });
  }

  async signUp(name: string, password: string): Promise<void> {
    await this.authenticate('signup', name, password);
  }

  /** `totp`: a staff account's authenticator code, which the room asks for with TOTP_REQUIRED. */
  async logIn(name: string, password: string, totp?: string): Promise<void> {
    await this.authenticate('login', name, password, totp);
  }

  /**
   * Over HTTP, so that the room sets the session cookie; then a fresh socket, whose upgrade carries it,
   * resumes that session (and subscribes to the lobby).
   */
  private async authenticate(
    op: 'signup' | 'login',
    name: string,
    password: string,
    totp?: string,
  ): Promise<void> {
    const answer = await this.http(
      `/api/${op}`,
      totp === undefined ? { name, password } : { name, password, totp },
    );
    const body = (answer.body ?? {}) as Record<string, unknown>;
    if (answer.status !== 200) {
      const code = typeof body['code'] === 'string' ? body['code'] : 'ERROR';
      throw new RequestError(code, typeof body['message'] === 'string' ? body['message'] : code);
    }
    const data = body as unknown as { account: AccountInfo; balances: Balances };
    this.set({ session: { account: data.account, balances: data.balances, startedAt: this.now() } });
    this.lobbyWanted = true;
    this.connection.reopen();
  }

  /** Ends the session on the server (every tab and socket on it) and forgets it here. */
  async logOut(): Promise<void> {
    try {
      await this.http('/api/logout', {});
    } finally {
      this.signedOut(null);
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

  // ── Tournaments ───────────────────────────────────────────────────────────────────────────────
  async loadTournaments(): Promise<void> {
    const ack = await this.guard(this.connection.request('tournament-list'));
    if (ack !== null) this.set({ tournaments: (ack['data'] as AckData['tournament-list']).tournaments });
  }

  async loadTournament(tournamentId: string): Promise<void> {
    const ack = await this.guard(this.connection.request('tournament-get', { tournamentId }));
    if (ack === null) return;
    const detail = (ack['data'] as AckData['tournament-get']).tournament;
    this.set({
      tournamentPages: { ...this.state.tournamentPages, [tournamentId]: { detail, at: this.now() } },
      tournaments: this.state.tournaments.map((t) => (t.tournamentId === tournamentId ? detail : t)),
    });
  }

  /**
   * Registers (or unregisters): the buy-in and fee taken (or given back). Answers the refusal in plain
   * words with the server's code, or null; the lobby and the page are read again either way.
   */
  async enterTournament(tournamentId: string, enter: boolean): Promise<string | null> {
    const op = enter ? 'tournament-register' : 'tournament-unregister';
    const refusal = await this.tournamentRequest(op, { tournamentId });
    await Promise.all([this.loadTournaments(), this.loadTournament(tournamentId)]);
    return refusal;
  }

  /**
   * His request in a tournament he plays (a rebuy, add-on or re-entry; a deal proposed, accepted or
   * declined): the balances it answers taken, the page read again. Answers the refusal in plain words
   * with the server's code, or null.
   */
  async tournamentAct(
    tournamentId: string,
    op: TournamentActOp,
    fields: Readonly<Record<string, unknown>> = {},
  ): Promise<string | null> {
    const refusal = await this.tournamentRequest(op, { ...fields, tournamentId });
    await this.loadTournament(tournamentId);
    return refusal;
  }

  private async tournamentRequest(
    op: ClientOp,
    payload: Readonly<Record<string, unknown>>,
  ): Promise<string | null> {
    try {
      const ack = await this.connection.request(op, payload);
      const balances = (ack['data'] as { balances?: Balances } | undefined)?.balances;
      if (balances !== undefined) this.setBalances(balances);
      return null;
    } catch (error) {
      return error instanceof RequestError
        ? refusalText(error.code, error.message)
        : error instanceof Error
          ? error.message
          : String(error);
    }
  }

  /** He has read the notice that he was moved. */
  dismissMove(tournamentId: string): void {
    this.setPlay(tournamentId, { moved: false });
  }

  private setPlay(tournamentId: string, change: Partial<TournamentPlay>): void {
    const play = { ...(this.state.tournamentPlay[tournamentId] ?? NO_PLAY), ...change };
    this.set({ tournamentPlay: { ...this.state.tournamentPlay, [tournamentId]: play } });
  }

  /**
   * The room gives him a table (at the start, when moved, when it is opened again): he follows it —
   * the table opened and shown, the one he left closed here.
   */
  private tournamentSeat(tournamentId: string, tableId: string, moved: boolean): void {
    const left = this.state.open.filter((id) => id !== tableId && tournamentOfTable(id) === tournamentId);
    const showing = this.state.screen;
    this.setPlay(tournamentId, { tableId, moved });
    if (this.state.tables[tableId] === undefined) {
      this.addTable(tableId);
      void this.connection.request('table-open', { tableId }).catch(() => undefined);
    }
    for (const old of left) {
      this.set({
        tables: without(this.state.tables, old),
        open: this.state.open.filter((id) => id !== old),
        chat: without(this.state.chat, old),
      });
      void this.connection.request('table-close', { tableId: old }).catch(() => undefined);
    }
    // Moved from the table he was looking at, or the tournament starting: his new table comes to the front.
    if (moved ? left.includes(showing) || showing === tableId : true) this.set({ screen: tableId });
    void this.loadTournament(tournamentId);
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
    const chat = without(this.state.chat, tableId);
    this.set({ tables, open, chat, screen: this.state.screen === tableId ? 'lobby' : this.state.screen });
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

  /** Answers the hand's run-it-twice offer: agree, or decline (one run). */
  async runTwice(tableId: string, accept: boolean): Promise<void> {
    await this.guard(this.connection.request('run-twice', { tableId, accept }));
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

  /**
   * Seated, the client contributes 32 bytes of the browser's cryptographic source to each hand of the
   * table's chain, naming the commitment the view announces (docs/fairness.md §4). A refusal is not
   * shown: a hand that started before the bytes arrived refuses them, and the next view names the next.
   */
  private contribute(tableId: string, view: TableView): void {
    const next = view.fair;
    if (view.you === null || next === null || this.contributedTo.get(tableId) === next.commitment) return;
    this.contributedTo.set(tableId, next.commitment);
    const fields = { tableId, commitment: next.commitment, bytes: randomContribution() };
    this.connection.request('fair-contribute', fields).then(
      (ack) => {
        const data = ack['data'] as { hand: number; hash: string };
        this.updateTable(tableId, (table) => withContribution(table, data.hand, data.hash));
      },
      () => undefined,
    );
  }

  /** Who sits at a table, for the lobby's preview of its row (the table is not watched). */
  async tablePreview(tableId: string): Promise<readonly SeatPreview[] | null> {
    const ack = await this.guard(this.connection.request('table-preview', { tableId }));
    return ack === null ? null : (ack['data'] as { seats: readonly SeatPreview[] }).seats;
  }

  async historyFetch(handId: number): Promise<HandHistoryPayload | null> {
    const ack = await this.guard(this.connection.request('history-fetch', { handId }));
    return ack === null ? null : (ack['data'] as { hand: HandHistoryPayload }).hand;
  }

  /** Says `text` in the table's chat (seated players only; the server cleans and may refuse it). */
  async sendChat(tableId: string, text: string): Promise<boolean> {
    return (await this.guard(this.connection.request('chat-send', { tableId, text }))) !== null;
  }

  private async loadNotes(): Promise<void> {
    const ack = await this.guard(this.connection.request('notes-list'));
    if (ack === null) return;
    const { notes } = ack['data'] as { notes: readonly PlayerNoteView[] };
    this.set({
      notes: Object.fromEntries(
        notes.map((note) => [note.about.id, { colour: note.colour, note: note.note }]),
      ),
    });
  }

  /** Writes his note on a player (an empty note without a tag removes it). */
  async setNote(account: number, colour: NoteColour | null, note: string): Promise<boolean> {
    const ack = await this.guard(this.connection.request('note-set', { about: account, colour, note }));
    if (ack === null) return false;
    const others = Object.fromEntries(
      Object.entries(this.state.notes).filter(([id]) => Number(id) !== account),
    );
    this.set({ notes: colour === null && note === '' ? others : { ...others, [account]: { colour, note } } });
    return true;
  }

  /** Hides (or shows again) a player's chat lines, here and in every later session of this browser. */
  muteChat(account: number, muted: boolean): void {
    const others = this.state.prefs.mutedPlayers.filter((id) => id !== account);
    this.setPrefs({ mutedPlayers: muted ? [...others, account] : others });
  }

  /** A console request; a refusal becomes the toast and null. */
  async staff<O extends StaffOp>(op: O, fields: Record<string, unknown> = {}): Promise<AckData[O] | null> {
    const ack = await this.guard(this.connection.request(op, fields));
    return ack === null ? null : (ack['data'] as AckData[O]);
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
      case 'lobby-table-removed':
        this.set({ lobby: this.state.lobby.filter((row) => row.tableId !== message.tableId) });
        return;
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
        if (view === null) return;
        this.updateTable(message.tableId, (table) =>
          receive(table, { op: message.op, seq: message.seq, view }),
        );
        if (this.state.tables[message.tableId] !== undefined) this.contribute(message.tableId, view);
        return;
      }
      case 'table-event': {
        const event = asEventView(message.event);
        if (event !== null)
          this.updateTable(message.tableId, (table) =>
            receive(table, { op: message.op, seq: message.seq, handId: message.handId, event }),
          );
        return;
      }
      case 'legal-actions': {
        const legal = asLegal(message.legal);
        if (legal !== null)
          this.updateTable(message.tableId, (table) =>
            receive(table, { op: message.op, seq: message.seq, legal }),
          );
        return;
      }
      case 'clock':
        this.updateTable(message.tableId, (table) => {
          // The action clock's length is what is left when the message arrives (the bar starts full).
          const same = table.clock?.seat === message.seat && table.clock.deadline === message.deadline;
          const clock = {
            seat: message.seat,
            deadline: message.deadline,
            actionMs: same ? table.clock.actionMs : Math.max(1000, message.deadline - this.now()),
            timeBankMs: message.timeBankMs,
          };
          return receive(table, { op: message.op, seq: message.seq, clock });
        });
        return;
      case 'hand-summary': {
        const summary = asSummary(message.summary);
        if (summary !== null)
          this.updateTable(message.tableId, (table) =>
            receive(table, { op: message.op, seq: message.seq, summary }),
          );
        return;
      }
      case 'balances':
        this.setBalances(message.balances);
        return;
      case 'chat': {
        if (this.state.tables[message.tableId] === undefined) return;
        const lines = this.state.chat[message.tableId] ?? [];
        const line: ChatLine = { from: message.from, text: message.text, at: message.at };
        this.set({ chat: { ...this.state.chat, [message.tableId]: [...lines, line].slice(-CHAT_KEPT) } });
        return;
      }
      case 'tournament-seat':
        this.tournamentSeat(message.tournamentId, message.tableId, message.moved);
        return;
      case 'tournament-out':
        this.setPlay(message.tournamentId, { out: message.result });
        void this.loadTournament(message.tournamentId);
        return;
      case 'tournament-end':
        this.setPlay(message.tournamentId, { ended: message.state });
        void this.loadTournament(message.tournamentId);
        return;
      case 'waitlist-seat':
        this.set({ offers: { ...this.state.offers, [message.tableId]: message.seat } });
        return;
      case 'broadcast':
        this.set({ toast: `Message from the room: ${message.text}` });
        return;
      case 'session-ended':
        this.signedOut(message.reason === 'logout' ? null : `Session ended (${message.reason})`);
        return;
      case 'hello':
      case 'ack':
      case 'error':
        return;
    }
  }
}

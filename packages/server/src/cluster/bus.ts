/**
 * The cluster's message bus on NATS (core request/reply and publish; nothing is kept by the server):
 *
 * - **Requests to a member**: each member answers on its own subject, so a request goes to the process
 *   the caller believes owns the table, never to whichever subscriber is fastest. Each request carries a
 *   client request id, and the member keeps the answer (or the work in flight) of every id it saw in the
 *   last {@link DEDUP_MS}: a retry after a time-out or "no responders" gets that answer again and is never
 *   applied twice.
 * - **Pushes**: an owner sends a table's messages for one subscription under a name the subscriber
 *   chose, each with the owner's lease epoch and the subscription's sequence number (1, 2, …); what it
 *   sends one member in one turn of its event loop travels as one frame on that member's push subject.
 *   NATS delivers at most once, so a subscriber checks the order ({@link PushOrder}): an older epoch is
 *   dropped, and a gap means a message was lost: the subscriber asks again, which starts with a snapshot.
 * - **Only members speak** (./bus-crypto.ts, ./bus-frames.ts): every request, answer and push is sealed
 *   to the member it is for, every broadcast signed, with keys each member registered when it joined; a message is
 *   accepted only from a live member (./peers.ts), sent within {@link ACCEPTED_SKEW_MS} of now by the
 *   room's clock. Anything else — a client that holds the bus's credentials but no member's keys, a
 *   stopped member, an old message replayed, a body altered — is refused and reported, never applied.
 */
import { connect, ErrorCode, NatsError, type NatsConnection, type Subscription } from 'nats';
import { MemberKeys, seal, signatureValid, unseal, type PublicMemberKeys } from './bus-crypto.js';
import { covered, frameHeader, readFrame, SEALED, SIGNATURE_BYTES, SIGNED } from './bus-frames.js';
import type { LiveMembers } from './peers.js';
import type { MemberId } from './registry.js';
import { natsConnectionOptions, type BusConnectOptions } from './bus-connection.js';

/** How long a member remembers a request id's answer (longer than any caller retries). */
export const DEDUP_MS = 60_000;

/**
 * How far a message's send time may be from the receiver's now (both by the room's clock): older ones
 * are refused as replays. Shorter than {@link DEDUP_MS}, so that a request replayed while it is
 * accepted meets its first answer instead of being applied again.
 */
export const ACCEPTED_SKEW_MS = 30_000;

const UNAVAILABLE: Record<BusUnavailable['reason'], string> = {
  'no-responders': 'nobody answers',
  timeout: 'no answer in time',
  refused: 'the answer was not the member asked',
};

/**
 * A request that reached nobody, was not answered in time, or whose answer did not prove to come from
 * the member asked: the caller may retry it with the same id.
 */
export class BusUnavailable extends Error {
  constructor(
    readonly reason: 'no-responders' | 'timeout' | 'refused',
    subject: string,
  ) {
    super(`${subject}: ${UNAVAILABLE[reason]}`);
  }
}

/** Why a message was refused. */
export type BusRefusal =
  'malformed' | 'not for this member' | 'not a live member' | 'stale' | 'not from its sender';

/** Told of each message refused, with the member it named (0 when it named none). */
export type RefusalSink = (why: BusRefusal, subject: string, from: number) => void;

/** What makes a process a member on the bus: its keys, who is live, and the room's clock. */
export interface BusSecurity {
  readonly keys: MemberKeys;
  readonly members: LiveMembers;
  readonly refused?: RefusalSink;
}

/** A message opened: the member that sent it and what it said. */
interface Opened {
  readonly from: MemberId;
  readonly body: unknown;
}

const encoder = new TextEncoder();
/** A message that could not be opened (the database away while its sender's liveness was asked) is dropped. */
const noop = (): void => undefined;
const decoder = new TextDecoder();

const isText = (value: unknown): value is string => typeof value === 'string';

function parseBody(bytes: Uint8Array): { readonly ok: true; readonly body: unknown } | null {
  try {
    return { ok: true, body: JSON.parse(decoder.decode(bytes)) as unknown };
  } catch {
    return null;
  }
}

/** A request as it travels: the caller's id for it and what it asks. */
export interface BusRequest<T> {
  readonly requestId: string;
  readonly body: T;
}

/** One pushed message: the owner's epoch, the subscription's sequence number, the message. */
export interface BusPush<T> {
  readonly epoch: number;
  readonly seq: number;
  readonly message: T;
}

/** What a subscriber does with a push: apply it, drop it (older epoch or already seen), or resubscribe. */
export type PushVerdict = 'apply' | 'drop' | 'gap';

/**
 * The order of one subscription's pushes: the epoch it was made under and the last number applied.
 * A newer epoch than expected is a gap too (the subscription must be made again with the new owner).
 */
export class PushOrder {
  #last = 0;

  constructor(readonly epoch: number) {}

  judge(push: { readonly epoch: number; readonly seq: number }): PushVerdict {
    if (push.epoch < this.epoch) return 'drop';
    if (push.epoch > this.epoch) return 'gap';
    if (push.seq <= this.#last) return 'drop';
    if (push.seq !== this.#last + 1) return 'gap';
    this.#last = push.seq;
    return 'apply';
  }
}

/**
 * What a member answers: requests for its tables (`requests`), or for the tournaments it directs
 * (`tournaments`, ./tournaments.ts).
 */
export type MemberDesk = 'requests' | 'tournaments';

const memberSubject = (member: number, desk: MemberDesk): string => `member.${member}.${desk}`;
/** Where a member receives its pushes, every subscription's at once. */
const pushSubject = (member: MemberId): string => `pushes.${member}`;

/** Answers of recent request ids, kept for {@link DEDUP_MS}, in the order they came (oldest first). */
class RecentRequests<R> {
  readonly #answers = new Map<string, { readonly answer: Promise<R>; readonly at: number }>();

  constructor(private readonly keepMs: number) {}

  answerOf(requestId: string, now: number, work: () => Promise<R>): Promise<R> {
    for (const [id, entry] of this.#answers) {
      if (now - entry.at < this.keepMs) break;
      this.#answers.delete(id);
    }
    const known = this.#answers.get(requestId);
    if (known !== undefined) return known.answer;
    const answer = work();
    this.#answers.set(requestId, { answer, at: now });
    return answer;
  }
}

export class Bus {
  readonly #subscriptions = new Set<Subscription>();
  /** This process's member id on the bus; 0 until it has joined. */
  #me: MemberId = 0;
  /** The room's clock minus this process's (./registry.ts measures it at each heartbeat). */
  #clockOffsetMs = 0;
  /** The key shared with each member, for this process's member id of now. */
  readonly #shared = new Map<MemberId, Buffer>();
  /** Pushes not sent yet, by the member they go to: each a subject and its value. */
  readonly #outbox = new Map<MemberId, [string, unknown][]>();
  /** The handlers of this member's pushes, by subject. */
  readonly #pushHandlers = new Map<string, (value: unknown, from: MemberId) => void>();
  #stopPushes: () => void = noop;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly room: string,
    private readonly security: BusSecurity,
  ) {}

  /**
   * Connects to NATS for the room named `room`: every subject is under `felt.ROOM.`, so that rooms (on
   * different databases) sharing one NATS server never hear each other (their member ids overlap).
   * `auth`: credentials and TLS beyond the URL's own (./bus-connection.ts).
   */
  static async connect(
    url: string,
    name: string,
    room: string,
    security: BusSecurity,
    auth: BusConnectOptions = {},
  ): Promise<Bus> {
    const options = await natsConnectionOptions(url, auth);
    const nc = await connect({ ...options, name, maxReconnectAttempts: -1, reconnectTimeWait: 500 });
    return new Bus(nc, `felt.${room.replaceAll(/[^A-Za-z0-9_-]/g, '_')}`, security);
  }

  /** The public keys this process registers with each member row it joins as. */
  get publicKeys(): PublicMemberKeys {
    return this.security.keys.public;
  }

  /** Speaks as `member` from now on (the member row just joined with {@link publicKeys}). */
  identify(member: MemberId): void {
    this.#me = member;
    this.#shared.clear();
    this.#listenForPushes(member);
  }

  /** The room's clock (the database's) is `offsetMs` ahead of this process's. */
  setClockOffset(offsetMs: number): void {
    this.#clockOffsetMs = offsetMs;
  }

  #now(): number {
    return Date.now() + this.#clockOffsetMs;
  }

  #subject(subject: string): string {
    return `${this.room}.${subject}`;
  }

  #refuse(why: BusRefusal, subject: string, from: number): null {
    this.security.refused?.(why, subject, from);
    return null;
  }

  #sharedKey(member: MemberId, box: Parameters<MemberKeys['sharedKey']>[0]): Buffer {
    let key = this.#shared.get(member);
    if (key === undefined) {
      key = this.security.keys.sharedKey(box, this.room, this.#me, member);
      this.#shared.set(member, key);
    }
    return key;
  }

  async #seal(to: MemberId, subject: string, value: unknown): Promise<Uint8Array> {
    const from = this.#me;
    if (from === 0) throw new Error('the bus speaks only for a member that has joined');
    const keys = await this.security.members.keysOf(to);
    if (keys === null) throw new BusUnavailable('no-responders', subject);
    const head = frameHeader({ kind: SEALED, from, to, at: this.#now() });
    const sealed = seal(
      this.#sharedKey(to, keys.box),
      covered(subject, head),
      encoder.encode(JSON.stringify(value)),
    );
    return Buffer.concat([head, sealed]);
  }

  /** Opens a message sealed for this member; null (reported) when it is not a live member's, for it, now. */
  async #unseal(subject: string, data: Uint8Array, expectedFrom?: MemberId): Promise<Opened | null> {
    const frame = readFrame(data);
    if (frame === null || frame.header.kind !== SEALED) return this.#refuse('malformed', subject, 0);
    const { from, to, at } = frame.header;
    if (to !== this.#me || (expectedFrom !== undefined && from !== expectedFrom)) {
      return this.#refuse('not for this member', subject, from);
    }
    if (Math.abs(this.#now() - at) > ACCEPTED_SKEW_MS) return this.#refuse('stale', subject, from);
    const keys = await this.security.members.keysOf(from);
    if (keys === null) return this.#refuse('not a live member', subject, from);
    if (to !== this.#me) return this.#refuse('not for this member', subject, from);
    const plain = unseal(this.#sharedKey(from, keys.box), covered(subject, frame.head), frame.rest);
    if (plain === null) return this.#refuse('not from its sender', subject, from);
    const parsed = parseBody(plain);
    return parsed === null ? this.#refuse('malformed', subject, from) : { from, body: parsed.body };
  }

  /** Opens a broadcast; null (reported) when a live member did not sign it, now. */
  async #verify(subject: string, data: Uint8Array): Promise<Opened | null> {
    const frame = readFrame(data);
    if (frame === null || frame.header.kind !== SIGNED || frame.rest.length < SIGNATURE_BYTES) {
      return this.#refuse('malformed', subject, 0);
    }
    const { from, at } = frame.header;
    if (Math.abs(this.#now() - at) > ACCEPTED_SKEW_MS) return this.#refuse('stale', subject, from);
    const keys = await this.security.members.keysOf(from);
    if (keys === null) return this.#refuse('not a live member', subject, from);
    const signature = frame.rest.subarray(0, SIGNATURE_BYTES);
    const body = frame.rest.subarray(SIGNATURE_BYTES);
    if (!signatureValid(keys.sign, covered(subject, frame.head, body), signature)) {
      return this.#refuse('not from its sender', subject, from);
    }
    const parsed = parseBody(body);
    return parsed === null ? this.#refuse('malformed', subject, from) : { from, body: parsed.body };
  }

  /**
   * Answers the requests sent to `member` (at its `desk`) with `handler`, which is told the member that
   * sent each, once per request id and sender: a repeated id gets the first answer. Until the returned
   * function is called.
   */
  serveMember<R>(
    member: number,
    handler: (body: unknown, from: MemberId) => Promise<R>,
    keepMs = DEDUP_MS,
    desk: MemberDesk = 'requests',
  ): () => void {
    const recent = new RecentRequests<R>(keepMs);
    const subject = this.#subject(memberSubject(member, desk));
    const subscription = this.nc.subscribe(subject, {
      callback: (error, msg) => {
        if (error !== null) return;
        void this.#unseal(subject, msg.data).then((opened) => {
          const request = opened?.body as Partial<BusRequest<unknown>> | undefined;
          if (opened === null || !isText(request?.requestId) || msg.reply === undefined) return;
          const reply = msg.reply;
          // A handler that throws leaves the request unanswered: the caller sees a time-out.
          recent
            .answerOf(`${opened.from}:${request.requestId}`, Date.now(), () =>
              handler(request.body, opened.from),
            )
            .then((answer) => this.#seal(opened.from, reply, answer))
            .then((sealed) => msg.respond(sealed))
            .catch(() => undefined);
        }, noop);
      },
    });
    return this.#track(subscription);
  }

  /** Sends a request to `member`; throws {@link BusUnavailable} when nobody answers in `timeoutMs`. */
  async request<T, R>(
    member: number,
    request: BusRequest<T>,
    timeoutMs: number,
    desk: MemberDesk = 'requests',
  ): Promise<R> {
    const subject = this.#subject(memberSubject(member, desk));
    try {
      const reply = await this.nc.request(subject, await this.#seal(member, subject, request), {
        timeout: timeoutMs,
      });
      const opened = await this.#unseal(reply.subject, reply.data, member);
      if (opened === null) throw new BusUnavailable('refused', subject);
      return opened.body as R;
    } catch (error) {
      if (error instanceof NatsError && error.code === (ErrorCode.NoResponders as string)) {
        throw new BusUnavailable('no-responders', subject);
      }
      if (error instanceof NatsError && error.code === (ErrorCode.Timeout as string)) {
        throw new BusUnavailable('timeout', subject);
      }
      throw error;
    }
  }

  /** Broadcasts `value` on `subject`, signed: every member may read it (no private view goes so). */
  publish(subject: string, value: unknown): void {
    const from = this.#me;
    if (from === 0) return;
    const full = this.#subject(subject);
    const head = frameHeader({ kind: SIGNED, from, to: 0, at: this.#now() });
    const body = encoder.encode(JSON.stringify(value));
    const signature = this.security.keys.signature(covered(full, head, body));
    this.nc.publish(full, Buffer.concat([head, signature, body]));
  }

  /**
   * Sends `value` for the handler of `subject` at `member` alone (a subscription's pushes: a player's
   * private view). What this process sends one member in one turn of its event loop — every viewer's
   * message of an action — goes as one frame on that member's push subject, sealed once. Dropped when
   * that member is not live, as NATS drops what nobody reads.
   */
  publishTo(member: MemberId, subject: string, value: unknown): void {
    let batch = this.#outbox.get(member);
    if (batch === undefined) {
      batch = [];
      this.#outbox.set(member, batch);
    }
    batch.push([subject, value]);
    if (this.#outbox.size === 1 && batch.length === 1) {
      setImmediate(() => {
        this.#sendPushes();
      });
    }
  }

  #sendPushes(): void {
    const outbox = [...this.#outbox];
    this.#outbox.clear();
    for (const [member, batch] of outbox) {
      const full = this.#subject(pushSubject(member));
      this.#seal(member, full, batch)
        .then((sealed) => {
          this.nc.publish(full, sealed);
        })
        .catch(noop);
    }
  }

  /** Receives this member's pushes, each handed to the handler of its subject. */
  #listenForPushes(member: MemberId): void {
    this.#stopPushes();
    const full = this.#subject(pushSubject(member));
    this.#stopPushes = this.#track(
      this.nc.subscribe(full, {
        callback: (error, msg) => {
          if (error !== null) return;
          void this.#unseal(full, msg.data).then((opened) => {
            if (opened === null) return;
            if (!Array.isArray(opened.body)) {
              this.#refuse('malformed', full, opened.from);
              return;
            }
            for (const entry of opened.body as unknown[]) {
              if (!Array.isArray(entry) || !isText(entry[0])) continue;
              this.#pushHandlers.get(entry[0])?.(entry[1], opened.from);
            }
          }, noop);
        },
      }),
    );
  }

  /** Receives the broadcasts on `subject` that a live member signed, until the returned function is called. */
  subscribe(subject: string, onValue: (value: unknown, from: MemberId) => void): () => void {
    const full = this.#subject(subject);
    return this.#track(
      this.nc.subscribe(full, {
        callback: (error, msg) => {
          if (error !== null) return;
          void this.#verify(full, msg.data).then((opened) => {
            if (opened !== null) onValue(opened.body, opened.from);
          }, noop);
        },
      }),
    );
  }

  /**
   * Receives what live members send this one for `subject` ({@link publishTo}), until the returned
   * function is called.
   */
  subscribeSealed(subject: string, onValue: (value: unknown, from: MemberId) => void): () => void {
    this.#pushHandlers.set(subject, onValue);
    return () => {
      if (this.#pushHandlers.get(subject) === onValue) this.#pushHandlers.delete(subject);
    };
  }

  #track(subscription: Subscription): () => void {
    this.#subscriptions.add(subscription);
    return () => {
      if (this.#subscriptions.delete(subscription)) subscription.unsubscribe();
    };
  }

  /** Resolves once the server has everything sent so far (subscriptions included). */
  flush(): Promise<void> {
    return this.nc.flush();
  }

  /** Sends what is queued and closes the connection. */
  async close(): Promise<void> {
    this.#subscriptions.clear();
    await this.nc.drain();
  }
}

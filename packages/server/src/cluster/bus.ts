/**
 * The cluster's message bus on NATS (core request/reply and publish; nothing is kept by the server):
 *
 * - **Requests to a member**: each member answers on its own subject, so a request goes to the process
 *   the caller believes owns the table, never to whichever subscriber is fastest. Each request carries a
 *   client request id, and the member keeps the answer (or the work in flight) of every id it saw in the
 *   last {@link DEDUP_MS}: a retry after a time-out or "no responders" gets that answer again and is never
 *   applied twice.
 * - **Pushes**: an owner publishes a table's messages for one subscription on a subject the subscriber
 *   chose, each with the owner's lease epoch and the subscription's sequence number (1, 2, …). NATS
 *   delivers at most once, so a subscriber checks the order ({@link PushOrder}): an older epoch is dropped,
 *   and a gap means a message was lost: the subscriber asks again, which starts with a snapshot.
 * - **Only members speak** (./bus-crypto.ts): every request, answer and push is sealed to the member it
 *   is for, every broadcast signed, with keys each member registered when it joined; a message is
 *   accepted only from a live member (./peers.ts), sent within {@link ACCEPTED_SKEW_MS} of now by the
 *   room's clock. Anything else — a client that holds the bus's credentials but no member's keys, a
 *   stopped member, an old message replayed, a body altered — is refused and reported, never applied.
 */
import { connect, ErrorCode, NatsError, type NatsConnection, type Subscription } from 'nats';
import {
  MemberKeys,
  seal,
  signatureValid,
  unseal,
  type PublicMemberKeys,
  type Sealed,
} from './bus-crypto.js';
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

/** A unicast message as it travels: sealed by `from` for `to` at `at` (./bus-crypto.ts). */
interface SealedEnvelope extends Sealed {
  readonly from: number;
  readonly to: number;
  readonly at: number;
}

/** A broadcast as it travels: its JSON body in clear, signed by `from` at `at`. */
interface SignedEnvelope {
  readonly from: number;
  readonly at: number;
  readonly body: string;
  readonly sig: string;
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

const isMemberId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;
const isText = (value: unknown): value is string => typeof value === 'string';

function parse(data: Uint8Array): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(decoder.decode(data));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

const sealedEnvelope = (value: Record<string, unknown> | null): SealedEnvelope | null =>
  value !== null &&
  isMemberId(value['from']) &&
  isMemberId(value['to']) &&
  Number.isSafeInteger(value['at']) &&
  isText(value['iv']) &&
  isText(value['box'])
    ? (value as unknown as SealedEnvelope)
    : null;

const signedEnvelope = (value: Record<string, unknown> | null): SignedEnvelope | null =>
  value !== null &&
  isMemberId(value['from']) &&
  Number.isSafeInteger(value['at']) &&
  isText(value['body']) &&
  isText(value['sig'])
    ? (value as unknown as SignedEnvelope)
    : null;

const sealedData = (subject: string, from: number, to: number, at: number) =>
  `sealed\n${subject}\n${from}\n${to}\n${at}`;
const signedData = (subject: string, from: number, at: number, body: string) =>
  `signed\n${subject}\n${from}\n${at}\n${body}`;

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

  #refuse(why: BusRefusal, subject: string, from: unknown): null {
    this.security.refused?.(why, subject, isMemberId(from) ? from : 0);
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
    const at = this.#now();
    const sealed = seal(
      this.#sharedKey(to, keys.box),
      sealedData(subject, from, to, at),
      encoder.encode(JSON.stringify(value)),
    );
    const envelope: SealedEnvelope = { from, to, at, ...sealed };
    return encoder.encode(JSON.stringify(envelope));
  }

  /** Opens a message sealed for this member; null (reported) when it is not a live member's, for it, now. */
  async #unseal(subject: string, data: Uint8Array, expectedFrom?: MemberId): Promise<Opened | null> {
    const envelope = sealedEnvelope(parse(data));
    if (envelope === null) return this.#refuse('malformed', subject, 0);
    const { from, to, at } = envelope;
    if (to !== this.#me || (expectedFrom !== undefined && from !== expectedFrom)) {
      return this.#refuse('not for this member', subject, from);
    }
    if (Math.abs(this.#now() - at) > ACCEPTED_SKEW_MS) return this.#refuse('stale', subject, from);
    const keys = await this.security.members.keysOf(from);
    if (keys === null) return this.#refuse('not a live member', subject, from);
    if (to !== this.#me) return this.#refuse('not for this member', subject, from);
    const plain = unseal(this.#sharedKey(from, keys.box), sealedData(subject, from, to, at), envelope);
    if (plain === null) return this.#refuse('not from its sender', subject, from);
    try {
      return { from, body: JSON.parse(decoder.decode(plain)) as unknown };
    } catch {
      return this.#refuse('malformed', subject, from);
    }
  }

  /** Opens a broadcast; null (reported) when a live member did not sign it, now. */
  async #verify(subject: string, data: Uint8Array): Promise<Opened | null> {
    const envelope = signedEnvelope(parse(data));
    if (envelope === null) return this.#refuse('malformed', subject, 0);
    const { from, at, body, sig } = envelope;
    if (Math.abs(this.#now() - at) > ACCEPTED_SKEW_MS) return this.#refuse('stale', subject, from);
    const keys = await this.security.members.keysOf(from);
    if (keys === null) return this.#refuse('not a live member', subject, from);
    if (!signatureValid(keys.sign, signedData(subject, from, at, body), sig)) {
      return this.#refuse('not from its sender', subject, from);
    }
    try {
      return { from, body: JSON.parse(body) as unknown };
    } catch {
      return this.#refuse('malformed', subject, from);
    }
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
    const at = this.#now();
    const body = JSON.stringify(value);
    const envelope: SignedEnvelope = {
      from,
      at,
      body,
      sig: this.security.keys.signature(signedData(full, from, at, body)),
    };
    this.nc.publish(full, encoder.encode(JSON.stringify(envelope)));
  }

  /**
   * Sends `value` on `subject` sealed for `member` alone (a subscription's pushes: a player's private
   * view). Dropped when that member is not live, as NATS drops what nobody reads.
   */
  publishTo(member: MemberId, subject: string, value: unknown): void {
    const full = this.#subject(subject);
    this.#seal(member, full, value)
      .then((sealed) => {
        this.nc.publish(full, sealed);
      })
      .catch(() => undefined);
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

  /** Receives what live members seal for this one on `subject`, until the returned function is called. */
  subscribeSealed(subject: string, onValue: (value: unknown, from: MemberId) => void): () => void {
    const full = this.#subject(subject);
    return this.#track(
      this.nc.subscribe(full, {
        callback: (error, msg) => {
          if (error !== null) return;
          void this.#unseal(full, msg.data).then((opened) => {
            if (opened !== null) onValue(opened.body, opened.from);
          }, noop);
        },
      }),
    );
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

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
 */
import { connect, ErrorCode, JSONCodec, NatsError, type NatsConnection, type Subscription } from 'nats';
import { natsConnectionOptions, type BusConnectOptions } from './bus-connection.js';

/** How long a member remembers a request id's answer (longer than any caller retries). */
export const DEDUP_MS = 60_000;

const codec = JSONCodec();

/** A request that reached nobody or was not answered in time: the caller may retry it with the same id. */
export class BusUnavailable extends Error {
  constructor(
    readonly reason: 'no-responders' | 'timeout',
    subject: string,
  ) {
    super(`${subject}: ${reason === 'no-responders' ? 'nobody answers' : 'no answer in time'}`);
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

  private constructor(
    private readonly nc: NatsConnection,
    private readonly room: string,
  ) {}

  /**
   * Connects to NATS for the room named `room`: every subject is under `felt.ROOM.`, so that rooms (on
   * different databases) sharing one NATS server never hear each other (their member ids overlap).
   * `auth`: credentials and TLS beyond the URL's own (./bus-connection.ts).
   */
  static async connect(url: string, name: string, room: string, auth: BusConnectOptions = {}): Promise<Bus> {
    const options = await natsConnectionOptions(url, auth);
    const nc = await connect({ ...options, name, maxReconnectAttempts: -1, reconnectTimeWait: 500 });
    return new Bus(nc, `felt.${room.replaceAll(/[^A-Za-z0-9_-]/g, '_')}`);
  }

  #subject(subject: string): string {
    return `${this.room}.${subject}`;
  }

  /**
   * Answers the requests sent to `member` (at its `desk`) with `handler`, once per request id: a repeated
   * id gets the first answer. Until the returned function is called.
   */
  serveMember<R>(
    member: number,
    handler: (body: unknown) => Promise<R>,
    keepMs = DEDUP_MS,
    desk: MemberDesk = 'requests',
  ): () => void {
    const recent = new RecentRequests<R>(keepMs);
    const subscription = this.nc.subscribe(this.#subject(memberSubject(member, desk)), {
      callback: (error, msg) => {
        if (error !== null) return;
        const request = codec.decode(msg.data) as BusRequest<unknown>;
        // A handler that throws leaves the request unanswered: the caller sees a time-out.
        recent
          .answerOf(request.requestId, Date.now(), () => handler(request.body))
          .then((answer) => msg.respond(codec.encode(answer)))
          .catch(() => undefined);
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
      const reply = await this.nc.request(subject, codec.encode(request), { timeout: timeoutMs });
      return codec.decode(reply.data) as R;
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

  publish(subject: string, value: unknown): void {
    this.nc.publish(this.#subject(subject), codec.encode(value));
  }

  /** Receives what is published on `subject` until the returned function is called. */
  subscribe(subject: string, onValue: (value: unknown) => void): () => void {
    const subscription = this.nc.subscribe(this.#subject(subject), {
      callback: (error, msg) => {
        if (error === null) onValue(codec.decode(msg.data));
      },
    });
    return this.#track(subscription);
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

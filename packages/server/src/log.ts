/**
 * The room's log: one JSON object a line (pino) with its level, time, msg and the event's fields
 * (tableId, account, handId, op, code, err…), for a log collector to index; `npx pino-pretty` reads
 * it for people at a terminal.
 */
import { pino, type Logger } from 'pino';

export type { Logger };

/** From the most to the least severe; `silent` logs nothing. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function isLogLevel(word: string): word is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(word);
}

export interface LoggerOptions {
  /** Default `info`. */
  readonly level?: LogLevel;
  /** Where the lines go; default stdout, written synchronously so that a line is out before an exit. */
  readonly destination?: { write(line: string): void };
}

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      // The level's name ("warn"), not pino's number: readable by people and by any collector.
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

/** Logs nothing: tests and tools that embed the room. */
export const silentLogger: Logger = createLogger({ level: 'silent' });

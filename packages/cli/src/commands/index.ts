import type { CommandEntry } from './command.js';

/**
 * Every `felt` command by name. Modules load on demand, so a command starts without loading the others
 * (the room and its database driver, the benchmark's peers).
 */
export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  serve: {
    summary: 'run the poker room (HTTP + WebSocket) on SQLite',
    load: async () => (await import('./serve.js')).serve,
  },
  cluster: {
    summary: 'cluster up --processes N: a room of N processes on this machine, its bus closed to others',
    load: async () => (await import('./cluster.js')).cluster,
  },
  admin: {
    summary: 'operator: audit the ledger, real-money cashier (credit, debit)',
    load: async () => (await import('./admin.js')).admin,
  },
  bots: {
    summary: 'bots that sign up and play over the real protocol; prints hands, actions, errors, latency',
    load: async () => (await import('./bots.js')).bots,
  },
  showdown: {
    summary: 'decide showdowns: JSON lines in, one JSON line out per line',
    load: async () => (await import('./showdown.js')).showdown,
  },
  odds: {
    summary: 'win, tie and equity of hands in any game: exact, or sampled with a seed',
    load: async () => (await import('./odds.js')).odds,
  },
  replay: {
    summary: 'replay PHH hand histories (.phh, .phhs): one JSON line of finishing stacks per hand',
    load: async () => (await import('./replay.js')).replay,
  },
  simulate: {
    summary: 'play random legal hands and write them as PHH (.phhs) with their finishing stacks',
    load: async () => (await import('./simulate.js')).simulate,
  },
  verify: {
    summary:
      'verify hands dealt by the fair-dealing scheme (.phh, .phhs): one JSON line per hand, ok or why not',
    load: async () => (await import('./verify.js')).verify,
  },
  bench: {
    summary: 'measure Felt against the npm poker libraries: bench [--json] [--only GROUP]',
    load: async () => (await import('./bench.js')).bench,
  },
  demo: {
    summary: "deal and show down one six-player hold'em hand",
    load: async () => (await import('./demo.js')).demo,
  },
};

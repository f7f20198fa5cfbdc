/**
 * Bots: clients of the room that speak only the wire protocol over a real WebSocket — `felt bots`, the
 * load benchmark and the integration tests use them.
 */
export { ProtocolClient, type Answer, type ConnectOptions, type Push } from './client.js';
export { runBots, type BotsOptions, type BotsDetail } from './run.js';
export { BotStats, type BotsReport } from './stats.js';
export { chooseAction, pickAmount, type Roll } from './strategy.js';
/** The vocabulary of bot options (`--game`, `--structure`). */
export { ROOM_GAMES, STRUCTURES, STRUCTURE_CODES, type RoomGame, type StructureName } from '@felt/protocol';

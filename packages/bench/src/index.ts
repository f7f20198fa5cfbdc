export { runBench, type BenchOptions } from './run.js';
export { GROUPS } from './groups.js';
export { clusterSettings, natsAnswers, runCluster, CLUSTER_NATS, CLUSTER_POSTGRES } from './cluster.js';
export { holdemTournament, mixedTournament, runTournament } from './tournament.js';
export { cpuShares, machineBusyTicks, processTicks, promSample, runRoom, type CpuSnapshot } from './room.js';
export {
  CONTENDER_NAMES,
  PEER_NAMES,
  type BenchGroup,
  type BenchRow,
  type BenchSettings,
} from './registry.js';

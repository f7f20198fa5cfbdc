/** A room of several processes on one machine, for trying the cluster and for its tests and benches. */
export { clusterUp, type ClusterInfo, type ClusterUpOptions, type RunningCluster } from './launch.js';
export { roomSubjects } from './nats-config.js';

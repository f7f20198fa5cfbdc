#!/usr/bin/env node
// The installed `felt` command: a committed, executable entry point, so that npm can link it before
// `prepare` has compiled the TypeScript it loads.
import '../dist/main.js';

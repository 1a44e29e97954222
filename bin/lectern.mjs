#!/usr/bin/env node
// Runs the TypeScript CLI without a build step: tsx compiles on the fly, as `npm start` does for the server.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');

#!/usr/bin/env node
// The published entry point: runs the TypeScript CLI through tsx's loader so a
// fresh clone needs no build step.
import { register } from 'tsx/esm/api';

register();
const { main, toleratePipeClose } = await import('../cli/main.ts');
toleratePipeClose();
process.exitCode = await main(process.argv.slice(2));

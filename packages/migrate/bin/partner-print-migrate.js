#!/usr/bin/env node
// Installed as `partner-print-migrate`; the CLI itself is built to dist/ by tsdown.
import '../dist/node/cli.js';

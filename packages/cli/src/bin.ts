#!/usr/bin/env node
import { runBin } from "./run-bin.ts";

process.exitCode = await runBin(process.argv.slice(2));

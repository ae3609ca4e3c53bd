import type { Command } from 'commander';
import type { JobApi } from '../job-api';
import { annotationCommands } from './annotate';
import { artifactCommands } from './artifact';

/** A job subcommand: adds itself to the program; `api` is read when the command runs, not before. */
export type JobCommand = (program: Command, api: () => JobApi) => void;

/** Every job subcommand, in the order `--help` lists them. */
export const JOB_COMMANDS: JobCommand[] = [annotationCommands, artifactCommands];

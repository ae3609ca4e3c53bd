import type { Command } from 'commander';
import type { JobApi } from '../job-api';
import { annotationCommands } from './annotate';
import { artifactCommands } from './artifact';
import { metaData } from './meta-data';
import { pipelineUpload } from './pipeline-upload';

/** A job subcommand: adds itself to the program; `api` is read when the command runs, not before. */
export type JobCommand = (program: Command, api: () => JobApi) => void;

/** Every job subcommand, in the order `--help` lists them. */
export const JOB_COMMANDS: JobCommand[] = [
  pipelineUpload, // pipeline upload [file]
  metaData, // meta-data set|get|exists|keys
  annotationCommands, // annotate, annotation remove
  artifactCommands, // artifact upload|download|search
];

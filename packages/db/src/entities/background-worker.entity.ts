import { defineEntity, p } from '@mikro-orm/core';

/** The server processes running background work, each seen now and then (a silent one's jobs are freed). */
export const BackgroundWorkerEntity = defineEntity({
  name: 'BackgroundWorker',
  tableName: 'background_workers',
  properties: {
    workerId: p.string().length(64).primary(),
    seenAt: p.datetime(3),
  },
});

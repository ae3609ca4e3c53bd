import { Migration } from '@mikro-orm/migrations';
import { notificationTriggerFunctions, WANTED } from './Migration20261127170000';

/** Whether an enabled service of the organization wants some event of the transition's kind. */
const WANTED_OF_KIND = (organization: string, kind: string) =>
  `exists (select 1 from notification_services s where s.organization_id = ${organization} and s.enabled
    and exists (select 1 from unnest(s.events) e where e like '${kind}.%'))`;

const replacing = (text: string) => text.replaceAll('create function', 'create or replace function');

/**
 * Transitions are queued only where a service wants events of their kind: an organization whose services
 * want build events queues nothing for its jobs' changes (a build's cancel was two fan-out jobs, now one).
 */
export class Migration20261128000500 extends Migration {
  override name = 'Migration20261128000500';

  override up(): void {
    this.addSql(replacing(notificationTriggerFunctions(WANTED_OF_KIND)));
  }

  override down(): void {
    this.addSql(replacing(notificationTriggerFunctions(WANTED)));
  }
}

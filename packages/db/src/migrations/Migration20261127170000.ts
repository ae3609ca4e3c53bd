import { Migration } from '@mikro-orm/migrations';

/**
 * Notification services and their deliveries, the processes doing background work, and the triggers that
 * enqueue, in the transaction of the change, the transitions of builds, jobs and agents that a notification
 * may be about (ADR 0019). Each
 * first asks whether any enabled service exists, then only for rows of organizations that have one, so a
 * database without services pays one probe of an empty table per statement.
 */
const TRANSITION = (kind: string, organization: string) =>
  `jsonb_build_object('kind', '${kind}', 'id', n.id, 'organization_id', ${organization}, 'state', n.state,
     'previous', o_state, 'event_id', gen_random_uuid(), 'at', clock_timestamp())`;

/** Whether the organization has an enabled service (of any events). */
export const WANTED = (organization: string, _kind: string) =>
  `exists (select 1 from notification_services s where s.organization_id = ${organization} and s.enabled)`;

/**
 * The functions the triggers call, with `wanted(organization, kind)` deciding whether an organization's
 * services may want a transition of that kind (Migration20261128000500 replaces them with a finer test).
 */
export const notificationTriggerFunctions = (wanted: typeof WANTED) => `
create function "notification_enqueue"(transitions jsonb) returns void language plpgsql as $$
begin
  if transitions is not null and jsonb_array_length(transitions) > 0 then
    perform graphile_worker.add_job('notification_fan_out', json_build_object('transitions', transitions),
      max_attempts := 10);
  end if;
end $$;

create function "notification_build_transitions"() returns trigger language plpgsql as $$
declare transitions jsonb;
begin
  if not exists (select 1 from notification_services where enabled) then return null; end if;
  if tg_op = 'INSERT' then
    select jsonb_agg(${TRANSITION('build', 'n.organization_id')}) into transitions
    from (select x.*, null::text as o_state from new_builds x) n where ${wanted('n.organization_id', 'build')};
  else
    select jsonb_agg(${TRANSITION('build', 'n.organization_id')}) into transitions
    from (select x.*, o.state as o_state from new_builds x join old_builds o on o.id = x.id
          where x.state is distinct from o.state) n
    where ${wanted('n.organization_id', 'build')};
  end if;
  perform notification_enqueue(transitions);
  return null;
end $$;

create function "notification_job_transitions"() returns trigger language plpgsql as $$
declare transitions jsonb;
begin
  if not exists (select 1 from notification_services where enabled) then return null; end if;
  if tg_op = 'INSERT' then
    select jsonb_agg(${TRANSITION('job', 'b.organization_id')}) into transitions
    from (select x.*, null::text as o_state from new_jobs x) n join builds b on b.id = n.build_id
    where ${wanted('b.organization_id', 'job')};
  else
    select jsonb_agg(${TRANSITION('job', 'b.organization_id')}) into transitions
    from (select x.*, o.state as o_state from new_jobs x join old_jobs o on o.id = x.id
          where x.state is distinct from o.state) n join builds b on b.id = n.build_id
    where ${wanted('b.organization_id', 'job')};
  end if;
  perform notification_enqueue(transitions);
  return null;
end $$;

create function "notification_agent_transitions"() returns trigger language plpgsql as $$
begin
  if ${wanted('new.organization_id', 'agent')} then
    perform notification_enqueue(jsonb_build_array(jsonb_build_object('kind', 'agent', 'id', new.id,
      'organization_id', new.organization_id, 'state', new.connection_state, 'previous', old.connection_state,
      'event_id', gen_random_uuid(), 'at', clock_timestamp())));
  end if;
  return null;
end $$;
`;

const NOTIFICATION_TRIGGERS = `${notificationTriggerFunctions(WANTED)}
create trigger "notification_builds_inserted" after insert on "builds" referencing new table as new_builds
  for each statement execute function notification_build_transitions();
create trigger "notification_builds_updated" after update on "builds"
  referencing old table as old_builds new table as new_builds
  for each statement execute function notification_build_transitions();
create trigger "notification_jobs_inserted" after insert on "jobs" referencing new table as new_jobs
  for each statement execute function notification_job_transitions();
create trigger "notification_jobs_updated" after update on "jobs"
  referencing old table as old_jobs new table as new_jobs
  for each statement execute function notification_job_transitions();
create trigger "notification_agents_updated" after update of "connection_state" on "agents" for each row
  when (old.connection_state is distinct from new.connection_state)
  execute function notification_agent_transitions();
`;

export class Migration20261127170000 extends Migration {
  override name = 'Migration20261127170000';

  override up(): void {
    this.addSql(
      `create table "background_workers" ("worker_id" varchar(64) not null, "seen_at" timestamptz(3) not null, primary key ("worker_id"));`,
    );

    this.addSql(
      `create table "notification_services" ("id" uuid not null, "organization_id" uuid not null, "description" varchar(255) not null, "url" text not null, "events" text[] not null, "pipeline_id" uuid null, "branch_filter" varchar(255) null, "token" varchar(255) not null, "token_mode" varchar(16) not null, "enabled" boolean not null default true, "creator_id" uuid null, "created_at" timestamptz(3) not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "notification_services_organization_id_index" on "notification_services" ("organization_id");`,
    );
    this.addSql(
      `create index "notification_services_pipeline_id_index" on "notification_services" ("pipeline_id");`,
    );

    this.addSql(
      `create table "notification_deliveries" ("id" uuid not null, "service_id" uuid not null, "event" varchar(64) not null, "event_id" uuid not null, "request_body" text not null, "state" varchar(16) not null, "attempts" int not null default 0, "response_status" int null, "error" text null, "duration_ms" int null, "created_at" timestamptz(3) not null, "last_attempt_at" timestamptz(3) null, primary key ("id"));`,
    );
    this.addSql(
      `create index "notification_deliveries_service_order_idx" on "notification_deliveries" ("service_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `alter table "notification_deliveries" add constraint "notification_deliveries_event_unique" unique ("service_id", "event_id", "event");`,
    );

    this.addSql(
      `alter table "notification_services" add constraint "notification_services_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "notification_services" add constraint "notification_services_pipeline_id_foreign" foreign key ("pipeline_id") references "pipelines" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "notification_services" add constraint "notification_services_creator_id_foreign" foreign key ("creator_id") references "users" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "notification_deliveries" add constraint "notification_deliveries_service_id_foreign" foreign key ("service_id") references "notification_services" ("id") on delete cascade;`,
    );

    this.addSql(NOTIFICATION_TRIGGERS);
  }

  override down(): void {
    this.addSql(
      `drop trigger "notification_builds_inserted" on "builds";
       drop trigger "notification_builds_updated" on "builds";
       drop trigger "notification_jobs_inserted" on "jobs";
       drop trigger "notification_jobs_updated" on "jobs";
       drop trigger "notification_agents_updated" on "agents";
       drop function "notification_build_transitions"();
       drop function "notification_job_transitions"();
       drop function "notification_agent_transitions"();
       drop function "notification_enqueue"(jsonb);`,
    );
    this.addSql('drop table "notification_deliveries", "notification_services";');
    this.addSql('drop table "background_workers";');
  }
}

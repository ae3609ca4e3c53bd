import type { BuildResult, BuildView, ListPart } from '@ci/application';
import { type BlockedState, type BuildSource, type BuildState, encodeGraphqlId, type User } from '@ci/domain';
import { asKeyValues } from '../key-values';
import type { PipelineNode } from './pipeline-node';
import { pipelineOfBuild } from './refs';

/**
 * A build as the `Build` type shows it: the use case's result, and each field the type exposes read from
 * it as a property. Exposed fields have no resolver, so a compiled query reads them in place (ADR 0010)
 * instead of calling a resolver per field; fields that need the request (`url`, `organization`), read
 * more (`rebuiltFrom`) or take arguments (`jobs`, `metaData`) keep theirs.
 */
export class BuildNode implements BuildResult {
  readonly view: BuildView;
  readonly showWebhookUrl: boolean;

  constructor(result: BuildResult) {
    this.view = result.view;
    this.showWebhookUrl = result.showWebhookUrl;
  }

  /** A use case's build as a node; null stays null, a node stays itself. */
  static of(result: BuildResult): BuildNode;
  static of(result: BuildResult | null): BuildNode | null;
  static of(result: BuildResult | null): BuildNode | null {
    return result && (result instanceof BuildNode ? result : new BuildNode(result));
  }

  /** Each parent's part of a batched list, its builds as nodes. */
  static parts(parts: Array<ListPart<BuildResult>>): Array<ListPart<BuildNode>> {
    return parts.map((part) =>
      'items' in part
        ? { items: part.items.map((build) => new BuildNode(build)), totalCount: part.totalCount }
        : part,
    );
  }

  /** the global id (`graphql_id`), read in place (ADR 0011) */
  get id(): string {
    return encodeGraphqlId('Build', this.view.build.id);
  }
  get uuid(): string {
    return this.view.build.id;
  }
  get number(): number {
    return this.view.build.number;
  }
  get state(): BuildState {
    return this.view.build.state;
  }
  get blocked(): boolean {
    return this.view.build.state === 'blocked';
  }
  /** the state a blocked build reports (rule B1) */
  get blockedState(): BlockedState | null {
    const { build } = this.view;
    return build.state === 'blocked' ? build.blockedState : null;
  }
  get message(): string | null {
    return this.view.build.message;
  }
  get commit(): string {
    return this.view.build.commit;
  }
  get branch(): string {
    return this.view.build.branch;
  }
  get cancelReason(): string | null {
    return this.view.build.cancelReason;
  }
  get env(): string[] {
    return asKeyValues(this.view.build.env);
  }
  get source(): { source: BuildSource; buildId: string } {
    return { source: this.view.build.source, buildId: this.view.build.id };
  }
  get createdAt(): Date {
    return this.view.build.createdAt;
  }
  get scheduledAt(): Date {
    return this.view.build.scheduledAt;
  }
  get startedAt(): Date | null {
    return this.view.build.startedAt;
  }
  get failingAt(): Date | null {
    return this.view.build.failingAt;
  }
  get finishedAt(): Date | null {
    return this.view.build.finishedAt;
  }
  /** `finishedAt` of a canceled build */
  get canceledAt(): Date | null {
    const { build } = this.view;
    return build.state === 'canceled' ? build.finishedAt : null;
  }
  get pullRequest(): { id: string } | null {
    const pr = this.view.build.pullRequest;
    return pr ? { id: pr.id } : null;
  }
  /** the user who created the build, else the author it was created with */
  get createdBy(): User | { name: string; email: string } | null {
    return this.view.creator ?? this.view.build.author;
  }
  get pipeline(): PipelineNode {
    return pipelineOfBuild(this);
  }
}

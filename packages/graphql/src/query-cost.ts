import {
  type DocumentNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { DEFAULT_PAGE_SIZE } from './connection';

/**
 * What an operation may cost before it runs: roughly the number of fields it could resolve, each
 * selection under a list field counted once per item it may return (its `first` or `last`, whether
 * written in the document or passed as a variable, else the default page size of a connection).
 * Fragments on several types are all counted, so the estimate errs high.
 */
export function operationCost(input: CostInput): number {
  return costing(input).cost;
}

interface CostInput {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

/** The cost, and whether a variable decided any of it (else it is the document's, whatever they are). */
export function costing(input: CostInput): { cost: number; readsVariables: boolean } {
  let readsVariables = false;
  const operations = input.document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = input.operationName
    ? operations.find((candidate) => candidate.name?.value === input.operationName)
    : operations[0];
  if (!operation) return { cost: 0, readsVariables };
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of input.document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const variables = input.variables ?? {};
  const root =
    operation.operation === 'mutation' ? input.schema.getMutationType() : input.schema.getQueryType();
  if (!root) return { cost: 0, readsVariables };

  const pageSize = (value: ValueNode | undefined): number | null => {
    if (!value) return null;
    if (value.kind === Kind.VARIABLE) readsVariables = true;
    const raw =
      value.kind === Kind.VARIABLE
        ? variables[value.name.value]
        : value.kind === Kind.INT
          ? value.value
          : null;
    const number = Number(raw);
    return raw === null || raw === undefined || !Number.isFinite(number) ? null : Math.max(0, number);
  };

  const cost = (
    selectionSet: SelectionSetNode,
    parent: GraphQLNamedType,
    inFragments: Set<string>,
  ): number => {
    let total = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition
          ? (input.schema.getType(selection.typeCondition.name.value) ?? parent)
          : parent;
        total += cost(selection.selectionSet, type, inFragments);
      } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(selection.name.value);
        if (!fragment || inFragments.has(fragment.name.value)) continue;
        const type = input.schema.getType(fragment.typeCondition.name.value) ?? parent;
        total += cost(fragment.selectionSet, type, new Set([...inFragments, fragment.name.value]));
      } else if (!selection.name.value.startsWith('__')) {
        const field =
          isObjectType(parent) || isInterfaceType(parent)
            ? parent.getFields()[selection.name.value]
            : undefined;
        if (!field || !selection.selectionSet) {
          total += 1;
          continue;
        }
        const argument = (name: string) => selection.arguments?.find((arg) => arg.name.value === name)?.value;
        const type = getNamedType(field.type);
        const sizes = [pageSize(argument('first')), pageSize(argument('last'))].filter(
          (size): size is number => size !== null,
        );
        const items = sizes.length
          ? Math.max(...sizes)
          : type.name.endsWith('Connection')
            ? DEFAULT_PAGE_SIZE
            : 1;
        total += 1 + items * cost(selection.selectionSet, type, inFragments);
      }
    }
    return total;
  };
  const total = cost(operation.selectionSet, root, new Set());
  return { cost: total, readsVariables };
}

/**
 * Refuses an operation whose cost exceeds `maxCost` before any resolver runs. It runs at execution,
 * not validation, because the cost depends on the variables (validation results are cached per
 * document, whatever the variables).
 */
export function useCostLimit(options: { maxCost: number }): Plugin {
  // A cost no variable decided is the document's: kept per document (yoga hands back the same parsed
  // document for the same text) and operation name, and forgotten with the document.
  const fixedCosts = new WeakMap<DocumentNode, Map<string, number>>();
  const costOf = (args: Parameters<NonNullable<Plugin['onExecute']>>[0]['args']): number => {
    const name = args.operationName ?? '';
    const fixed = fixedCosts.get(args.document)?.get(name);
    if (fixed !== undefined) return fixed;
    const { cost, readsVariables } = costing({
      schema: args.schema,
      document: args.document,
      operationName: args.operationName ?? null,
      variables: (args.variableValues as Record<string, unknown> | undefined) ?? null,
    });
    if (!readsVariables) {
      const byName = fixedCosts.get(args.document) ?? new Map<string, number>();
      byName.set(name, cost);
      fixedCosts.set(args.document, byName);
    }
    return cost;
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const cost = costOf(args);
      if (cost > options.maxCost) {
        setResultAndStopExecution({
          errors: [
            new GraphQLError(
              `Query cost ${cost} exceeds the limit of ${options.maxCost}: ask for fewer items (first/last) or fields`,
              { extensions: { code: 'query_too_costly' } },
            ),
          ],
        });
      }
    },
  };
}

import {
  type ASTVisitor,
  buildASTSchema,
  type GraphQLError,
  type GraphQLSchema,
  Kind,
  OverlappingFieldsCanBeMergedRule,
  parse,
  printSchema,
  specifiedRules,
  type ValidationContext,
  type ValidationRule,
  validate,
  visit,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** Each schema with its fields' non-null wrappers removed, built once. */
const relaxedSchemas = new WeakMap<GraphQLSchema, GraphQLSchema>();

function relaxed(schema: GraphQLSchema): GraphQLSchema {
  let found = relaxedSchemas.get(schema);
  if (!found) {
    const sdl = visit(parse(printSchema(schema)), { [Kind.NON_NULL_TYPE]: (node) => node.type });
    found = buildASTSchema(sdl, { assumeValidSDL: true });
    relaxedSchemas.set(schema, found);
  }
  return found;
}

/**
 * graphql-js's OverlappingFieldsCanBeMergedRule, but a selection whose only conflict is the nullability
 * of one named type is accepted: `... on User { name } ... on UnregisteredUser { name }` (`String!` and
 * `String`), which the public service answers and clients (bktide's `GetBuilds`) send. Two fields of one
 * response name can only differ in nullability when they come from different parent types, so the rule
 * decides over the schema without non-null wrappers: list shapes, named types, field names, arguments
 * and the subfields of composite fields are still compared. A conflict it finds is reported in
 * graphql-js's own words (the real types) unless those only name a difference in nullability.
 */
export const OverlappingFieldsUpToNullabilityRule: ValidationRule = (
  context: ValidationContext,
): ASTVisitor => ({
  Document(document) {
    const relaxedErrors = validate(relaxed(context.getSchema()), document, [
      OverlappingFieldsCanBeMergedRule,
    ]);
    if (relaxedErrors.length === 0) return false;
    const strictErrors = validate(context.getSchema(), document, [OverlappingFieldsCanBeMergedRule]);
    for (const error of relaxedErrors) {
      const strict = strictErrors.find((candidate) => sameNodes(candidate, error));
      const inOwnWords = strict && strict.message.replaceAll('!', '') === error.message;
      context.reportError(inOwnWords ? strict : error);
    }
    return false;
  },
});

function sameNodes(a: GraphQLError, b: GraphQLError): boolean {
  const left = a.nodes ?? [];
  const right = b.nodes ?? [];
  return left.length === right.length && left.every((node, index) => node === right[index]);
}

/** graphql-js's rules with OverlappingFieldsCanBeMergedRule replaced by the rule above. */
export const validationRules: readonly ValidationRule[] = specifiedRules.map((rule) =>
  rule === OverlappingFieldsCanBeMergedRule ? OverlappingFieldsUpToNullabilityRule : rule,
);

/**
 * The server's validation: whatever rules the other plugins added, with graphql-js's overlapping fields
 * rule replaced as above.
 */
export function useOverlappingFieldsUpToNullability(): Plugin {
  return {
    onValidate({ validateFn, setValidationFn }) {
      setValidationFn((schema, document, rules, typeInfo, options) =>
        validateFn(
          schema,
          document,
          (rules ?? specifiedRules).map((rule: ValidationRule) =>
            rule === OverlappingFieldsCanBeMergedRule ? OverlappingFieldsUpToNullabilityRule : rule,
          ),
          typeInfo,
          options,
        ),
      );
    },
  };
}

/**
 * The reference's `clientMutationId` is a String, not the ID Pothos would declare: each mutation's input
 * takes it and its payload echoes it, under this description.
 */
export const clientMutationId = {
  description: 'A unique identifier for the client performing the mutation.',
} as const;

import { describe, expect, it } from 'vitest';
import { violations } from './dependency-rules.mjs';

describe('the dependency direction rules', () => {
  it('keep domain free of our packages, npm packages and node built-ins', () => {
    expect(violations('packages/domain/src/a.ts', "import { x } from '@ci/application';")).toHaveLength(1);
    expect(violations('packages/domain/src/a.ts', "import { z } from 'zod';")).toHaveLength(1);
    expect(violations('packages/domain/src/a.ts', "import { readFileSync } from 'node:fs';")).toHaveLength(1);
    expect(violations('packages/domain/src/a.ts', "import { ok } from './result';")).toEqual([]);
    expect(violations('packages/domain/src/a.test.ts', "import { it } from 'vitest';")).toEqual([]);
  });

  it('forbid db, trpc and graphql from importing one another', () => {
    expect(violations('packages/db/src/a.ts', "import { x } from '@ci/trpc';")).toHaveLength(1);
    expect(violations('packages/trpc/src/a.ts', "export { x } from '@ci/graphql';")).toHaveLength(1);
    expect(violations('packages/graphql/src/a.ts', "const m = await import('@ci/db');")).toHaveLength(1);
    expect(violations('packages/trpc/src/a.ts', "import type { Actor } from '@ci/application';")).toEqual([]);
  });

  it('forbid application from importing db or transports', () => {
    expect(violations('packages/application/src/a.ts', "import { x } from '@ci/db';")).toHaveLength(1);
    expect(violations('packages/application/src/a.ts', "import { x } from '@ci/domain';")).toEqual([]);
  });

  it('catch relative imports that reach into another package', () => {
    expect(violations('packages/db/src/x/a.ts', "import { y } from '../../../trpc/src/y';")).toHaveLength(1);
    expect(violations('packages/db/src/x/a.ts', "import { y } from '../y';")).toEqual([]);
  });

  it('let the web app take only types from @ci/trpc, and nothing else of ours', () => {
    expect(violations('apps/web/src/api.ts', "import type { AppRouter } from '@ci/trpc';")).toEqual([]);
    expect(violations('apps/web/src/api.ts', "import { appRouter } from '@ci/trpc';")).toHaveLength(1);
    expect(violations('apps/web/src/api.ts', "import type { Actor } from '@ci/application';")).toHaveLength(
      1,
    );
    expect(violations('apps/web/src/api.ts', "import { x } from '@ci/db';")).toHaveLength(1);
    expect(violations('apps/web/src/pages/a.tsx', "import { api } from '../api';")).toEqual([]);
    expect(violations('apps/web/src/a.tsx', "import { x } from '../../server/src/app';")).toHaveLength(1);
    expect(violations('apps/web/src/a.tsx', "import { useQuery } from '@tanstack/react-query';")).toEqual([]);
  });

  it('leave apps free to wire everything', () => {
    expect(violations('apps/server/src/main.ts', "import { x } from '@ci/db';")).toEqual([]);
  });
});

import { type FormEvent, useState } from 'react';
import { api, queryClient, rememberCsrfToken } from '../api';
import { navigate, useLocation, useTitle } from '../router';

/** Where to go after signing in: a path of this site only, never another origin. */
function nextPath(search: URLSearchParams): string {
  const next = search.get('next') ?? '';
  return next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/sign-in') ? next : '/';
}

export function SignIn() {
  useTitle('Sign in');
  const { search } = useLocation();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const token = String(new FormData(event.currentTarget).get('token') ?? '');
    setBusy(true);
    setError(null);
    try {
      const response = await fetch('/sign-in', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      const body = (await response.json()) as { csrf_token?: string; message?: string };
      if (!response.ok || !body.csrf_token) {
        setError(body.message ?? 'Sign-in failed');
        return;
      }
      rememberCsrfToken(body.csrf_token);
      queryClient.clear();
      const next = nextPath(search);
      if (next !== '/') return navigate(next, { replace: true });
      // The page at / is the server's, not this app's: the first of the user's organizations instead.
      const [first] = await api.organizations.list.query({});
      navigate(first ? `/${first.slug}` : '/', { replace: true });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="sign-in" className="narrow">
      <h1 id="sign-in">Sign in</h1>
      <p>Paste an API access token. It is checked once and kept by the server, not by this browser.</p>
      <form onSubmit={submit}>
        <label htmlFor="token">API access token</label>
        <input id="token" name="token" type="password" autoComplete="off" required spellCheck={false} />
        {error ? (
          <p role="alert" className="error">
            {error}
          </p>
        ) : null}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </section>
  );
}

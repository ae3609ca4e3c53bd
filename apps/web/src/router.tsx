import { type AnchorHTMLAttributes, type MouseEvent, useEffect, useSyncExternalStore } from 'react';

const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}

/** The page's path and query, as the address bar shows them. */
export function useLocation(): { path: string; search: URLSearchParams; hash: string } {
  const href = useSyncExternalStore(subscribe, () => window.location.href);
  const url = new URL(href);
  return { path: url.pathname, search: url.searchParams, hash: url.hash.slice(1) };
}

/** Goes to another page of the app without loading the shell again. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  for (const listener of listeners) listener();
  if (!to.includes('#')) window.scrollTo(0, 0);
}

/** A link that is a real `<a href>` (open in a new tab works) and changes page in place when clicked. */
export function Link(props: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const { href, onClick: given, ...rest } = props;
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    given?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    event.preventDefault();
    navigate(href);
  };
  return <a href={href} {...rest} onClick={onClick} />;
}

/** Sets the document's title, which screen readers announce on a change of page. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · CI`;
  }, [title]);
}

/** The path's parameters when it matches `pattern` (`/:organization/:pipeline`), else null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of want.entries()) {
    const value = have[index] as string;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(value);
    else if (part !== value) return null;
  }
  return params;
}

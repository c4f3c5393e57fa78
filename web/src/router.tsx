/**
 * A small client-side router over the History API: the dashboard's paths are real URLs (the
 * server answers them with index.html, services/dashboard), links are ordinary <a href> that
 * keyboard and middle-click treat as links, and a plain left click moves without a reload.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";

const listeners = new Set<() => void>();

/** Goes to `href` (a path of this origin) without a reload. */
export function navigate(href: string): void {
  history.pushState(null, "", href);
  for (const l of listeners) l();
}

/** The current location (path and query), re-rendering on every navigation. */
export function useLocation(): URL {
  const [, setTick] = useState(0);
  useEffect(() => {
    const update = () => setTick((t) => t + 1);
    listeners.add(update);
    window.addEventListener("popstate", update);
    return () => {
      listeners.delete(update);
      window.removeEventListener("popstate", update);
    };
  }, []);
  return new URL(window.location.href);
}

/** An <a> that navigates in place on a plain left click. */
export function Link(props: { href: string; children: ComponentChildren; class?: string; current?: boolean }) {
  return (
    <a
      href={props.href}
      class={props.class}
      aria-current={props.current ? "page" : undefined}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(props.href);
      }}
    >
      {props.children}
    </a>
  );
}

/** Paths of a repository's pages. */
export const paths = {
  repository: (o: string, r: string) => `/repos/${o}/${r}`,
  queue: (o: string, r: string, branch: string) => `/repos/${o}/${r}/queue/${encodeURIComponent(branch)}`,
  pull: (o: string, r: string, n: bigint | number | string) => `/repos/${o}/${r}/pull/${n}`,
  logs: (o: string, r: string) => `/repos/${o}/${r}/logs`,
  statistics: (o: string, r: string, branch?: string) =>
    `/repos/${o}/${r}/statistics${branch ? `?branch=${encodeURIComponent(branch)}` : ""}`,
  configuration: (o: string, r: string) => `/repos/${o}/${r}/configuration`,
  webhooks: (o: string, r: string) => `/repos/${o}/${r}/webhooks`,
  tests: (o: string, r: string) => `/repos/${o}/${r}/tests`,
  test: (o: string, r: string, id: string) => `/repos/${o}/${r}/tests/${id}`,
  /** A batch, found through one of its pull requests (its events are that pull request's). */
  batch: (o: string, r: string, id: string, pull: bigint | number) => `/repos/${o}/${r}/batches/${id}?pull=${pull}`,
  checkRun: (o: string, r: string, id: bigint | number | string) => `/repos/${o}/${r}/check-runs/${id}`,
};

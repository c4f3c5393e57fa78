/**
 * The dashboard's shell: the sign-in gate, the header with navigation, and the page of the path.
 * Paths (docs/dashboard.md "Pages"): / (repositories), /repos/O/R (a repository), and the
 * repository's sections: queue/BRANCH, pull/N, batches/ID, check-runs/ID, statistics, logs,
 * configuration, webhooks, tests[/ID]. An unknown repository is a "not found" page; a refused credential ends the
 * session (clients.ts) and the sign-in form says why.
 */
import { useEffect, useState } from "preact/hooks";
import type { ComponentChildren } from "preact";
import { queue } from "./api/clients.js";
import { useLive } from "./api/live.js";
import type { RepositoryRef } from "./api/queue-view.js";
import { isNotFound } from "./components/status.js";
import { REPOSITORY_NAV } from "./nav.js";
import { Link, navigate, useLocation } from "./router.js";
import { onSessionChange, signOut, token } from "./session.js";
import { SignIn } from "./pages/sign-in.js";
import { Repositories, RepositoryNotFound, RepositoryPage } from "./pages/repositories.js";
import { QueuePage } from "./pages/queue.js";
import { PullRequestPage } from "./pages/pull-request.js";
import { LogsPage } from "./pages/logs.js";
import { ConfigurationPage } from "./pages/configuration.js";
import { WebhooksPage } from "./pages/webhooks.js";
import { StatisticsPage } from "./pages/statistics.js";
import { BatchPage } from "./pages/batch.js";
import { CheckRunPage } from "./pages/check-run.js";
import { TestPage } from "./pages/test.js";
import { TestsPage } from "./pages/tests.js";

/** A repository section's page: the repository, the rest of the path, and the URL (its query). */
type SectionPage = (p: { repo: RepositoryRef; rest: string; url: URL }) => ComponentChildren;

/** The sections of `/repos/O/R/<section>/<rest>`; a new page adds its entry here and in nav.ts. */
const SECTIONS: Record<string, SectionPage> = {
  queue: ({ repo, rest }) => <QueuePage key={rest} repo={repo} branch={decodeURIComponent(rest)} />,
  pull: ({ repo, rest }) => <PullRequestPage key={rest} repo={repo} number={BigInt(/^\d+$/.test(rest) ? rest : "0")} />,
  batches: ({ repo, rest, url }) => (
    <BatchPage key={rest} repo={repo} id={rest} pull={BigInt(url.searchParams.get("pull") ?? "0")} />
  ),
  "check-runs": ({ repo, rest }) => (
    <CheckRunPage key={rest} repo={repo} id={BigInt(/^\d+$/.test(rest) ? rest : "0")} />
  ),
  statistics: ({ repo, url }) => <StatisticsPage repo={repo} url={url} />,
  logs: ({ repo, url }) => <LogsPage repo={repo} url={url} />,
  configuration: ({ repo }) => <ConfigurationPage repo={repo} />,
  webhooks: ({ repo }) => <WebhooksPage repo={repo} />,
  tests: ({ repo, rest, url }) =>
    rest === "" ? <TestsPage repo={repo} url={url} /> : <TestPage key={rest} repo={repo} id={rest} />,
};

const REPO = /^\/repos\/([^/]+)\/([^/]+)(?:\/([^/]+)(?:\/(.+))?)?\/?$/;

/** The repository's pages, once the service said it knows the repository (else "not found"). */
function RepositoryGate({ repo, children }: { repo: RepositoryRef; children: ComponentChildren }) {
  const { error } = useLive(
    async function* (signal) {
      yield await queue.getRepository(repo, { signal });
    },
    [repo.owner, repo.repository],
  );
  if (isNotFound(error)) return <RepositoryNotFound repo={repo} />;
  return <>{children}</>;
}

function Page({ url }: { url: URL }) {
  const m = REPO.exec(url.pathname);
  if (!m) return url.pathname === "/" || url.pathname === "/sign-in" ? <Repositories /> : <UnknownPath />;
  const [, owner, repository, section, rest] = m;
  const repo = { owner: owner!, repository: repository! };
  const page = section === undefined ? () => <RepositoryPage repo={repo} /> : SECTIONS[section];
  if (!page) return <UnknownPath />;
  return (
    <RepositoryGate key={`${owner}/${repository}`} repo={repo}>
      {page({ repo, rest: rest ?? "", url })}
    </RepositoryGate>
  );
}

function UnknownPath() {
  return (
    <section data-testid="not-found">
      <h1>Not found</h1>
      <p>The dashboard has no such page.</p>
      <p>
        <Link href="/">Your repositories</Link>
      </p>
    </section>
  );
}

function RepoNav({ url }: { url: URL }) {
  const m = REPO.exec(url.pathname);
  if (!m) return null;
  const [, o, r, section = ""] = m;
  return (
    <nav aria-label={`${o}/${r}`}>
      <strong class="repo-name">
        {o}/{r}
      </strong>
      <ul>
        {REPOSITORY_NAV.map((e) => (
          <li key={e.label}>
            <Link href={e.href(o!, r!)} current={e.sections.includes(section)}>
              {e.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Re-renders on every sign-in and sign-out (a refused credential ends the session from anywhere). */
function useSession(): string | null {
  const [, setTick] = useState(0);
  useEffect(() => onSessionChange(() => setTick((t) => t + 1)), []);
  return token();
}

/** The whole dashboard. */
export function App() {
  const url = useLocation();
  if (!useSession()) return <SignIn />;
  return (
    <>
      <header>
        <Link href="/" class="brand">
          Yardmaster
        </Link>
        <RepoNav url={url} />
        <button
          type="button"
          class="link sign-out"
          onClick={() => {
            signOut();
            navigate("/");
          }}
        >
          Sign out
        </button>
      </header>
      <main>
        <Page url={url} />
      </main>
    </>
  );
}

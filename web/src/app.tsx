/**
 * The dashboard's shell: the sign-in gate, the header with navigation, and the page of the path.
 * Paths (docs/dashboard.md "Pages"): / (repositories), /repos/O/R (a repository's branches),
 * /repos/O/R/queue/BRANCH, /repos/O/R/pull/N, /repos/O/R/logs, /repos/O/R/configuration,
 * /repos/O/R/webhooks.
 */
import { Link, navigate, paths, useLocation } from "./router.js";
import { signOut, token } from "./session.js";
import { SignIn } from "./pages/sign-in.js";
import { Repositories, RepositoryPage } from "./pages/repositories.js";
import { QueuePage } from "./pages/queue.js";
import { PullRequestPage } from "./pages/pull-request.js";
import { LogsPage } from "./pages/logs.js";
import { ConfigurationPage } from "./pages/configuration.js";
import { WebhooksPage } from "./pages/webhooks.js";

const REPO = /^\/repos\/([^/]+)\/([^/]+)(?:\/(queue|pull|logs|configuration|webhooks)(?:\/(.+))?)?\/?$/;

function Page({ url }: { url: URL }) {
  const m = REPO.exec(url.pathname);
  if (!m) return <Repositories />;
  const [, owner, repository, section, rest] = m;
  const repo = { owner, repository };
  switch (section) {
    case "queue":
      return <QueuePage key={url.pathname} repo={repo} branch={decodeURIComponent(rest ?? "")} />;
    case "pull":
      return <PullRequestPage key={url.pathname} repo={repo} number={BigInt(rest ?? "0")} />;
    case "logs":
      return <LogsPage repo={repo} url={url} />;
    case "configuration":
      return <ConfigurationPage repo={repo} />;
    case "webhooks":
      return <WebhooksPage repo={repo} />;
    default:
      return <RepositoryPage repo={repo} />;
  }
}

function RepoNav({ url }: { url: URL }) {
  const m = REPO.exec(url.pathname);
  if (!m) return null;
  const [, o, r, section] = m;
  const items: [string, string, boolean][] = [
    ["Branches", paths.repository(o, r), !section],
    ["Activity log", paths.logs(o, r), section === "logs"],
    ["Configuration", paths.configuration(o, r), section === "configuration"],
    ["Webhooks", paths.webhooks(o, r), section === "webhooks"],
  ];
  return (
    <nav aria-label={`${o}/${r}`}>
      <strong>
        {o}/{r}
      </strong>
      <ul>
        {items.map(([label, href, current]) => (
          <li key={href}>
            <Link href={href} current={current}>
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The whole dashboard. */
export function App() {
  const url = useLocation();
  if (!token()) return <SignIn />;
  return (
    <>
      <header>
        <Link href="/" class="brand">
          Yardmaster
        </Link>
        <RepoNav url={url} />
        <button
          type="button"
          class="link"
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

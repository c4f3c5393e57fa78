/**
 * The pages of a repository in the header's navigation (docs/dashboard.md "Pages"), in order: one
 * entry per section of `/repos/O/R/<section>`. A new page adds its entry here and its route in
 * app.tsx (`SECTIONS`).
 */
import { paths } from "./router.js";

/** One entry: its label, its path, and the sections it is current for ("" = the repository's page). */
export interface NavEntry {
  label: string;
  href: (owner: string, repository: string) => string;
  sections: string[];
}

export const REPOSITORY_NAV: NavEntry[] = [
  { label: "Branches", href: paths.repository, sections: ["", "queue", "pull", "batches", "check-runs"] },
  { label: "Statistics", href: (o, r) => paths.statistics(o, r), sections: ["statistics"] },
  { label: "Tests", href: paths.tests, sections: ["tests"] },
  { label: "Activity log", href: paths.logs, sections: ["logs"] },
  { label: "Configuration", href: paths.configuration, sections: ["configuration"] },
  { label: "Webhooks", href: paths.webhooks, sections: ["webhooks"] },
];

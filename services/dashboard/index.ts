/**
 * The web dashboard's files, served by the service itself on its one port (docs/dashboard.md):
 * the bundle Vite built into dist/web (`npm run build`, also run by `npm ci`), and the dashboard's
 * own paths answered with its index.html (an SPA fallback limited to those paths, so an unknown
 * API path keeps its JSON 404). Nothing is loaded from elsewhere (no CDN).
 */
export { dashboardDir, registerDashboard, DASHBOARD_PATHS, type DashboardOptions } from "./static-routes.js";

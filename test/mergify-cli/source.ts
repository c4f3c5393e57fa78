/**
 * Where the translations of this folder come from: files of github.com/Mergifyio/mergify-cli at
 * the commits read (the stored copies of the search index), one constant per file.
 */
const REPO = "https://github.com/Mergifyio/mergify-cli/blob";

/** The URL of `path` at `commit`. */
const at = (commit: string, path: string) => `${REPO}/${commit}/${path}`;

export const SOURCES = {
  http: at("8bb025cf7976b9281569f6b52114ac7f5aa620b0", "crates/mergify-core/src/http.rs"),
  eventsClient: at("7daf2eabaa0ec67b0db4dc83b6291a8c71ff9f32", "crates/mergify-events/src/client.rs"),
  eventsEvent: at("639317f86854466fa883f9ea11a318f0e51dbf98", "crates/mergify-events/src/event.rs"),
  queueStatus: at("02003f4dae9e281294e43927f37411dda9f3540d", "crates/mergify-queue/src/status.rs"),
  queueShow: at("109d3fb877a472e2973945574806c2c82cf6e69e", "crates/mergify-queue/src/show.rs"),
  queueHistory: at("cbc699d967b897e478fc4b89cfc9b70d316c2e32", "crates/mergify-queue/src/history.rs"),
  queuePause: at("02003f4dae9e281294e43927f37411dda9f3540d", "crates/mergify-queue/src/pause.rs"),
  queueUnpause: at("1278c48cf218dc3dc966db137437f0bba28fa13c", "crates/mergify-queue/src/unpause.rs"),
  freezeCommon: at("1e82160416b353270c3d771603749176f2e2e544", "crates/mergify-freeze/src/common.rs"),
  freezeCreate: at("075f94ddd52158b6b365f0f96a831ad93770e119", "crates/mergify-freeze/src/create.rs"),
  freezeUpdate: at("1278c48cf218dc3dc966db137437f0bba28fa13c", "crates/mergify-freeze/src/update.rs"),
  freezeDelete: at("1278c48cf218dc3dc966db137437f0bba28fa13c", "crates/mergify-freeze/src/delete.rs"),
  freezeList: at("1278c48cf218dc3dc966db137437f0bba28fa13c", "crates/mergify-freeze/src/list.rs"),
  configSimulate: at("043f6f2d2c94242f302436b7a5795b4643afaccd", "crates/mergify-config/src/simulate.rs"),
  junitParse: at("23bd8a055d5a265367f05f41a91d42d44e8b9c80", "crates/mergify-ci/src/junit_process/junit.rs"),
  junitSpans: at("121fe7c055a1e47f01c1100696e0cf1a72fcca0a", "crates/mergify-ci/src/junit_process/spans.rs"),
  junitUpload: at("19c0db20d8f7c322080f7dac8c25482c2f55fe9e", "crates/mergify-ci/src/junit_process/upload.rs"),
  junitQuarantine: at("2c761d9cbfd5eeeff4b420ca033b659cbc179931", "crates/mergify-ci/src/junit_process/quarantine.rs"),
  testsQuarantine: at("013954ae3e79cb15b75e0020ccb4cca22347750c", "crates/mergify-ci/src/tests_quarantine.rs"),
  testsShow: at("043f6f2d2c94242f302436b7a5795b4643afaccd", "crates/mergify-ci/src/tests_show.rs"),
  httpDetail: at("04dce96ae5392684f696c2704a048456500e0c5d", "crates/mergify-core/src/http.rs"),
  pyQueueApi: at("32f8e4f29be0565e776b6b18a1a036d9fb1893a1", "mergify_cli/queue/api.py"),
  pyFreezeApi: at("0fa9eee7e5a7387611cf29f10808a253b2a4b35f", "mergify_cli/freeze/api.py"),
  httpErrors: at("04dce96ae5392684f696c2704a048456500e0c5d", "crates/mergify-core/src/http.rs"),
  scopesSend: at("013954ae3e79cb15b75e0020ccb4cca22347750c", "crates/mergify-ci/src/scopes_send.rs"),
  queueInfo: at("2616909bed72111e0fa208602187ef7204f29bfa", "crates/mergify-ci/src/queue_info.rs"),
  ciGit: at("11dc9924958d322a2f048024018500f497c1e1bb", "crates/mergify-ci/src/git.rs"),
  queueMetadata: at("11dc9924958d322a2f048024018500f497c1e1bb", "crates/mergify-ci/src/queue_metadata.rs"),
  gitRefs: at("0003a82149fec7126907ee9ffe877b6eab2c4089", "crates/mergify-ci/src/git_refs.rs"),
} as const;

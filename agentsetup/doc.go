// Package agentsetup owns the agent the app installs for itself: the pinned
// release of the public agent (pi, npm @earendil-works/pi-coding-agent) and
// a Node new enough to run it, installed with the user's npm into the app's
// own data folder, and the launcher there that the app starts. Nothing is
// installed globally and nothing needs root.
//
// The window's "Install the agent", the --install-agent command line that
// ./scripts/run.sh calls, and the end-to-end tests (package pienv) all
// install through Install, so the three cannot drift apart.
//
// It imports the standard library and internal/filelock only, and never
// Fyne: plain tests and -race cover it.
package agentsetup

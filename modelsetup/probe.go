package modelsetup

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// LocalKind is a kind of model server people run on their own computer,
// at its usual port.
type LocalKind struct {
	Name string
	Port int
	// Provider is the name the agent's models.json gives it.
	Provider string
}

// LocalKinds are the servers looked for, in the order shown.
var LocalKinds = []LocalKind{
	{"Ollama", 11434, "ollama"},
	{"llama.cpp server", 8080, "llama-cpp"},
	{"LM Studio", 1234, "lmstudio"},
	{"vLLM", 8000, "vllm"},
}

// Server is a model server that was asked for its models.
type Server struct {
	// Name is the kind ("Ollama") or, for a typed address, its host.
	Name string
	// BaseURL is the OpenAI-compatible base, http://127.0.0.1:11434/v1.
	BaseURL string
	// Provider is the name it gets in models.json.
	Provider string
	Models   []string
	// Err says why it could not be listed; nil when it answered.
	Err error
}

// probeTimeout bounds each question: a server on this computer answers in
// milliseconds, and nothing listening fails at once.
const probeTimeout = 2 * time.Second

// loopbackClient never goes through a proxy: the environment's proxy is
// for the internet, and loopback must not leave the machine.
var loopbackClient = &http.Client{Transport: &http.Transport{Proxy: nil, DialContext: (&net.Dialer{Timeout: probeTimeout}).DialContext}}

// ProbeLocal asks each known server on 127.0.0.1 for its models, side by
// side, and returns those that answered, in LocalKinds order. Nothing but
// loopback is asked.
func ProbeLocal(ctx context.Context) []Server {
	return probeKinds(ctx, "127.0.0.1", LocalKinds)
}

func probeKinds(ctx context.Context, host string, kinds []LocalKind) []Server {
	found := make([]Server, len(kinds))
	var wg sync.WaitGroup
	for i, k := range kinds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			base := "http://" + net.JoinHostPort(host, strconv.Itoa(k.Port)) + "/v1"
			models, err := listModels(ctx, loopbackClient, base)
			found[i] = Server{Name: k.Name, BaseURL: base, Provider: k.Provider, Models: models, Err: err}
		}()
	}
	wg.Wait()
	var out []Server
	for _, s := range found {
		if s.Err == nil {
			out = append(out, s)
		}
	}
	return out
}

// ProbeURL asks the server the user typed for its models. The address may
// be a host:port, a base URL with or without /v1, or the models URL
// itself; Server.BaseURL is the base the agent needs.
func ProbeURL(ctx context.Context, typed string) Server {
	base, err := NormalizeBaseURL(typed)
	if err != nil {
		return Server{Name: strings.TrimSpace(typed), Err: err}
	}
	u, _ := url.Parse(base)
	client := http.DefaultClient
	if isLoopback(u.Hostname()) {
		client = loopbackClient
	}
	models, err := listModels(ctx, client, base)
	return Server{Name: u.Host, BaseURL: base, Provider: providerFor(u), Models: models, Err: err}
}

// NormalizeBaseURL turns what a user types into an OpenAI base URL:
// "localhost:8080" → "http://localhost:8080/v1"; a path other than /v1 is
// kept (some servers live under a prefix), and a trailing /models dropped.
func NormalizeBaseURL(typed string) (string, error) {
	s := strings.TrimSpace(typed)
	if s == "" {
		return "", fmt.Errorf("type the server's address, such as http://127.0.0.1:8080")
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("%q is not a server address: type one such as http://127.0.0.1:8080", typed)
	}
	p := strings.TrimRight(u.Path, "/")
	p = strings.TrimSuffix(p, "/models")
	if p == "" {
		p = "/v1"
	}
	u.Path, u.RawQuery, u.Fragment = p, "", ""
	return u.String(), nil
}

// providerFor names a typed server's provider after its host and port.
func providerFor(u *url.URL) string {
	for _, k := range LocalKinds {
		if isLoopback(u.Hostname()) && u.Port() == strconv.Itoa(k.Port) {
			return k.Provider
		}
	}
	var b strings.Builder
	b.WriteString("server-")
	for _, r := range strings.ToLower(u.Host) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// listModels asks base/models, the OpenAI listing every local server
// speaks, and returns the model ids sorted.
func listModels(ctx context.Context, client *http.Client, base string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/models", nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, describeNetError(base, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return nil, fmt.Errorf("%s answered, then broke off: %v", base, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s/models answered %s: not an OpenAI-compatible server, or not at this path", base, resp.Status)
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, fmt.Errorf("%s/models did not answer with a model list: %v", base, err)
	}
	var ids []string
	for _, m := range list.Data {
		if m.ID != "" {
			ids = append(ids, m.ID)
		}
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("%s has no models: load or download one in the server first", base)
	}
	sort.Strings(ids)
	return ids, nil
}

func describeNetError(base string, err error) error {
	var ne net.Error
	switch {
	case strings.Contains(err.Error(), "connection refused"):
		return fmt.Errorf("nothing answers at %s", base)
	case errors.As(err, &ne) && ne.Timeout():
		return fmt.Errorf("%s did not answer within %s", base, probeTimeout)
	}
	return fmt.Errorf("%s: %v", base, err)
}

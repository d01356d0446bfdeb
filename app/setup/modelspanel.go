package setup

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/modelsetup"
	"knightcode.ai/desktop/widgets/kit"
)

// AgentTarget is how the tab's agent runs: its program, folder and
// environment, or the host it runs on over SSH.
type AgentTarget struct {
	Path, Dir string
	Env       []string
	// Remote names the SSH host; the panel then says where to connect a
	// model instead.
	Remote string
}

// ModelsHost is what the models panel needs from its tab.
type ModelsHost interface {
	// Do runs f on the UI goroutine soon; Go runs f off it, joined to the
	// tab's life (false once the tab is closing).
	Do(f func())
	Go(f func(ctx context.Context)) bool
	// Agent is the tab's agent now; ok is false when it has none.
	Agent() (AgentTarget, bool)
	// UseModel restarts the agent, so it reads the changed models.json,
	// and selects provider/model once it is back.
	UseModel(provider, model string)
	// Reload restarts the agent so it reads a changed key.
	Reload()
}

// ModelsPanel connects a model to the agent: the model servers it finds on
// this computer (asked only when the panel starts: the app opens no
// connection of its own otherwise) and one the user types, each with its
// models and Connect; and the cloud providers the agent knows, each with a
// masked API key field, Save, Check (one small request through the agent)
// and Remove.
type ModelsPanel struct {
	host ModelsHost
	keys *kit.DialogKeys
	// probe and probeURL are modelsetup's; tests replace them.
	probeLocal func(context.Context) []modelsetup.Server
	probeURL   func(context.Context, string) modelsetup.Server
	check      func(ctx context.Context, a modelsetup.AgentCommand, provider, model string) (modelsetup.CheckResult, error)
	configFor  func(context.Context, string, []string) (modelsetup.Config, error)

	config  modelsetup.Config
	target  AgentTarget
	servers []modelsetup.Server
	typed   *modelsetup.Server
	probing bool
	// gen numbers the panel's starts: answers for an older one are
	// dropped.
	gen int

	root     *fyne.Container
	lead     *widget.Label
	intro    *widget.Label
	status   *widget.Label
	local    *fyne.Container
	address  *kit.DialogEntry
	lookBtn  *widget.Button
	againBtn *widget.Button
	cloud    *fyne.Container
	provider *widget.Select
	key      *kit.DialogEntry
	save     *widget.Button
	checkBtn *widget.Button
	remove   *widget.Button
	keyNote  *widget.Label
	stored   []string
	checking bool
}

// NewModelsPanel builds the panel; keys, when it sits in a dialog, are the
// dialog's (Esc closes it). Start fills it.
func NewModelsPanel(host ModelsHost, keys *kit.DialogKeys) *ModelsPanel {
	p := &ModelsPanel{host: host, keys: keys, probeLocal: modelsetup.ProbeLocal, probeURL: modelsetup.ProbeURL,
		check: modelsetup.Check, configFor: modelsetup.ConfigFor}
	title := widget.NewLabelWithStyle("Connect a model", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.SizeName = theme.SizeNameSubHeadingText
	p.lead = wrapped("")
	p.lead.TextStyle = fyne.TextStyle{Bold: true}
	p.lead.Hide()
	p.intro = wrapped("")
	p.status = wrapped("")
	p.status.Importance = widget.SuccessImportance
	p.status.Hide()
	p.local = container.NewVBox()
	p.address = kit.NewDialogEntry(&kit.DialogKeys{Cancel: cancelOf(keys), Submit: p.lookAtAddress})
	p.address.SetPlaceHolder("another server: http://127.0.0.1:8080 or host:port")
	p.lookBtn = widget.NewButtonWithIcon("Look", theme.SearchIcon(), p.lookAtAddress)
	p.againBtn = widget.NewButtonWithIcon("Look again", theme.ViewRefreshIcon(), p.lookLocal)
	p.againBtn.Importance = widget.LowImportance
	names := make([]string, len(modelsetup.CloudProviders))
	for i, c := range modelsetup.CloudProviders {
		names[i] = c.Name
	}
	p.provider = widget.NewSelect(names, func(string) { p.drawKeyNote() })
	p.key = kit.NewDialogEntry(&kit.DialogKeys{Cancel: cancelOf(keys), Submit: p.saveKey})
	p.key.Password = true
	p.key.SetPlaceHolder("API key")
	p.save = widget.NewButtonWithIcon("Save", theme.DocumentSaveIcon(), p.saveKey)
	p.checkBtn = widget.NewButtonWithIcon("Check", theme.MediaPlayIcon(), p.checkKey)
	p.remove = widget.NewButtonWithIcon("Remove", theme.DeleteIcon(), p.removeKey)
	p.remove.Importance = widget.LowImportance
	p.keyNote = wrapped("")
	p.keyNote.SizeName = theme.SizeNameCaptionText
	p.cloud = container.NewVBox(
		container.NewBorder(nil, nil, p.provider, container.NewHBox(p.save, p.checkBtn, p.remove), p.key),
		p.keyNote)
	p.provider.SetSelectedIndex(0)
	localHead := container.NewBorder(nil, nil, heading("Model servers on this computer"), p.againBtn)
	typed := container.NewBorder(nil, nil, nil, p.lookBtn, p.address)
	p.root = container.NewVBox(title, p.lead, p.intro, p.status, localHead, p.local, typed,
		widget.NewSeparator(), heading("Cloud providers"), p.cloud)
	return p
}

// SetLead puts a line in bold under the title, saying why the panel shows.
func (p *ModelsPanel) SetLead(text string) {
	p.lead.SetText(text)
	p.lead.Show()
}

// Object is the panel, to place in the tab or a dialog.
func (p *ModelsPanel) Object() fyne.CanvasObject { return p.root }

// Start asks the agent where it keeps its models and looks for servers on
// this computer; it runs on the UI goroutine each time the panel is shown.
func (p *ModelsPanel) Start() {
	p.gen++
	gen := p.gen
	target, ok := p.host.Agent()
	p.target = target
	p.status.Hide()
	switch {
	case !ok:
		p.setIntro("There is no agent to connect a model to yet.")
		p.setEnabled(false)
		return
	case target.Remote != "":
		p.setIntro("This tab's agent runs on " + target.Remote + ". Connect a model there, in the agent's files on that machine, or in a tab on this computer.")
		p.setEnabled(false)
		return
	}
	p.setIntro("Asking the agent where it keeps its models…")
	p.setEnabled(false)
	p.host.Go(func(ctx context.Context) {
		c, err := p.configFor(ctx, target.Path, target.Env)
		p.host.Do(func() {
			if gen != p.gen {
				return
			}
			p.config = c
			switch {
			case err != nil:
				p.setIntro("The agent did not say where it keeps its models: " + err.Error())
			case !c.Known():
				p.setIntro("This agent names no configuration folder in its --help, and the KnightCode reference documents no models file or login: " +
					"the window cannot connect a model for it. Start it with its own --provider and --model (Settings › Agent arguments).")
			default:
				p.setIntro("The agent reads its models from " + c.ModelsFile() + " and its keys from " + c.AuthFile() + ". " +
					"Connecting a server adds it there, keeping everything else in the file.")
				p.setEnabled(true)
				p.loadStored()
				p.lookLocal()
			}
		})
	})
}

// lookLocal asks the known ports of 127.0.0.1 for their models.
func (p *ModelsPanel) lookLocal() {
	if !p.config.Known() {
		return
	}
	gen := p.gen
	p.probing = true
	p.drawLocal()
	p.host.Go(func(ctx context.Context) {
		found := p.probeLocal(ctx)
		p.host.Do(func() {
			if gen != p.gen {
				return
			}
			p.probing = false
			p.servers = found
			p.drawLocal()
		})
	})
}

// lookAtAddress asks the server the user typed.
func (p *ModelsPanel) lookAtAddress() {
	typed := strings.TrimSpace(p.address.Text)
	if !p.config.Known() || typed == "" {
		return
	}
	gen := p.gen
	p.lookBtn.Disable()
	p.host.Go(func(ctx context.Context) {
		s := p.probeURL(ctx, typed)
		p.host.Do(func() {
			if gen != p.gen {
				return
			}
			p.lookBtn.Enable()
			p.typed = &s
			p.drawLocal()
		})
	})
}

// drawLocal lists the servers found, each with its models and Connect.
func (p *ModelsPanel) drawLocal() {
	var rows []fyne.CanvasObject
	switch {
	case p.probing:
		rows = append(rows, caption("Looking at 127.0.0.1 (Ollama :11434, llama.cpp :8080, LM Studio :1234, vLLM :8000)…"))
	case len(p.servers) == 0:
		rows = append(rows, caption("No model server answers on this computer (Ollama :11434, llama.cpp :8080, LM Studio :1234, vLLM :8000). Start one and press Look again, or type another server's address below."))
	}
	for _, s := range p.servers {
		rows = append(rows, p.serverRow(s))
	}
	if s := p.typed; s != nil {
		if s.Err != nil {
			l := wrapped(s.Err.Error())
			l.Importance = widget.DangerImportance
			rows = append(rows, l)
		} else {
			rows = append(rows, p.serverRow(*s))
		}
	}
	p.local.Objects = rows
	p.local.Refresh()
}

// serverRow is one server: its name and address, its models to choose
// from, and Connect.
func (p *ModelsPanel) serverRow(s modelsetup.Server) fyne.CanvasObject {
	name := widget.NewLabelWithStyle(s.Name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	where := widget.NewLabel(s.BaseURL)
	where.Truncation = fyne.TextTruncateEllipsis
	models := widget.NewSelect(s.Models, nil)
	models.SetSelectedIndex(0)
	connect := widget.NewButtonWithIcon("Connect", theme.ConfirmIcon(), func() { p.connect(s, models.Selected) })
	connect.Importance = widget.HighImportance
	head := container.NewBorder(nil, nil, name, nil, where)
	return container.NewVBox(head, container.NewBorder(nil, nil, nil, connect, models))
}

// connect writes the server into models.json and has the agent use the
// model.
func (p *ModelsPanel) connect(s modelsetup.Server, model string) {
	if model == "" {
		return
	}
	change, err := modelsetup.WriteProvider(p.config.ModelsFile(), s.Provider, modelsetup.LocalProvider(s))
	if err != nil {
		p.say(err.Error(), true)
		return
	}
	msg := fmt.Sprintf("Connected %s on %s: added as provider %q to %s", model, s.Name, s.Provider, change.Path)
	if change.Backup != "" {
		msg += " (the file as it was: " + change.Backup + ")"
	}
	p.say(msg+". The agent restarts to read it.", false)
	p.host.UseModel(s.Provider, model)
}

// selectedProvider is the cloud provider chosen in the list.
func (p *ModelsPanel) selectedProvider() modelsetup.CloudProvider {
	i := p.provider.SelectedIndex()
	if i < 0 {
		i = 0
	}
	return modelsetup.CloudProviders[i]
}

func (p *ModelsPanel) saveKey() {
	if !p.config.Known() || p.checking {
		return
	}
	c := p.selectedProvider()
	if err := modelsetup.SaveAPIKey(p.config, c.ID, p.key.Text); err != nil {
		p.keyNote.SetText(err.Error())
		p.keyNote.Importance = widget.DangerImportance
		p.keyNote.Refresh()
		return
	}
	p.key.SetText("")
	p.loadStored()
	p.keyNote.SetText("Saved the " + c.Name + " key in " + p.config.AuthFile() + " (readable only by you). The agent restarts to read it; Check makes one small request with it.")
	p.keyNote.Importance = widget.SuccessImportance
	p.keyNote.Refresh()
	p.host.Reload()
}

func (p *ModelsPanel) removeKey() {
	c := p.selectedProvider()
	if err := modelsetup.RemoveAPIKey(p.config, c.ID); err != nil {
		p.keyNote.SetText(err.Error())
		p.keyNote.Importance = widget.DangerImportance
		p.keyNote.Refresh()
		return
	}
	p.loadStored()
	p.drawKeyNote()
	p.host.Reload()
}

// checkKey makes one small request to the provider through a separate
// agent and shows the answer or the error.
func (p *ModelsPanel) checkKey() {
	if !p.config.Known() || p.checking {
		return
	}
	c := p.selectedProvider()
	target, gen := p.target, p.gen
	p.checking = true
	p.checkBtn.Disable()
	p.keyNote.SetText("Asking " + c.Name + " for one word, through the agent…")
	p.keyNote.Importance = widget.MediumImportance
	p.keyNote.Refresh()
	p.host.Go(func(ctx context.Context) {
		res, err := p.check(ctx, modelsetup.AgentCommand{Path: target.Path, Dir: target.Dir, Env: target.Env}, c.ID, "")
		p.host.Do(func() {
			if gen != p.gen {
				return
			}
			p.checking = false
			p.checkBtn.Enable()
			if err != nil {
				p.keyNote.SetText(c.Name + " did not answer: " + err.Error())
				p.keyNote.Importance = widget.DangerImportance
			} else {
				p.keyNote.SetText(fmt.Sprintf("%s answered through the agent (%s): %q", c.Name, res.Model, oneLine(res.Reply, 120)))
				p.keyNote.Importance = widget.SuccessImportance
			}
			p.keyNote.Refresh()
		})
	})
}

// loadStored reads which providers have a stored key (never the keys).
func (p *ModelsPanel) loadStored() {
	names, err := modelsetup.StoredCredentials(p.config)
	p.stored = names
	if err != nil {
		p.keyNote.SetText(err.Error())
		p.keyNote.Importance = widget.DangerImportance
		p.keyNote.Refresh()
		return
	}
	p.drawKeyNote()
}

func (p *ModelsPanel) drawKeyNote() {
	if p.keyNote == nil || p.checking {
		return
	}
	c := p.selectedProvider()
	switch {
	case !p.config.Known():
		p.keyNote.SetText("")
	case slices.Contains(p.stored, c.ID):
		p.keyNote.SetText("A " + c.Name + " key is stored in " + p.config.AuthFile() + ". Paste another to replace it, Check it, or Remove it.")
	default:
		p.keyNote.SetText("Paste your " + c.Name + " API key: it is stored in " + p.config.AuthFile() + ", readable only by you. (The agent also reads $" + c.EnvVar + ".)")
	}
	p.keyNote.Importance = widget.MediumImportance
	p.keyNote.Refresh()
}

func (p *ModelsPanel) setIntro(text string) {
	p.intro.SetText(text)
}

// say shows what the last action did, or why it failed.
func (p *ModelsPanel) say(text string, problem bool) {
	p.status.SetText(text)
	p.status.Importance = widget.SuccessImportance
	if problem {
		p.status.Importance = widget.DangerImportance
	}
	p.status.Show()
	p.status.Refresh()
}

func (p *ModelsPanel) setEnabled(on bool) {
	for _, d := range []fyne.Disableable{p.address, p.lookBtn, p.againBtn, p.provider, p.key, p.save, p.checkBtn, p.remove} {
		if on {
			d.Enable()
		} else {
			d.Disable()
		}
	}
	if !on {
		p.local.Objects = nil
		p.local.Refresh()
	}
}

// cancelOf is what Esc does in the panel's fields: close the dialog it sits
// in, if any.
func cancelOf(keys *kit.DialogKeys) func() {
	if keys == nil {
		return nil
	}
	return keys.Cancel
}

func wrapped(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}

func caption(text string) *widget.Label {
	l := wrapped(text)
	l.SizeName = theme.SizeNameCaptionText
	return l
}

func heading(text string) *widget.Label {
	return widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
}

// oneLine is s on one line, cut to n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

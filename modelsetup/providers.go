package modelsetup

// CloudProvider is a hosted provider the agent knows by name, and that
// takes an API key.
type CloudProvider struct {
	// ID is the agent's name for it, the key in auth.json and the
	// --provider argument.
	ID   string
	Name string
	// EnvVar is the environment variable the agent also reads the key
	// from.
	EnvVar string
}

// CloudProviders are the API-key providers that pi 0.73.1 and 1.6.0 both
// document (their docs/providers.md), most used first.
var CloudProviders = []CloudProvider{
	{"anthropic", "Anthropic", "ANTHROPIC_API_KEY"},
	{"openai", "OpenAI", "OPENAI_API_KEY"},
	{"google", "Google Gemini", "GEMINI_API_KEY"},
	{"openrouter", "OpenRouter", "OPENROUTER_API_KEY"},
	{"mistral", "Mistral", "MISTRAL_API_KEY"},
	{"deepseek", "DeepSeek", "DEEPSEEK_API_KEY"},
	{"xai", "xAI", "XAI_API_KEY"},
	{"groq", "Groq", "GROQ_API_KEY"},
	{"cerebras", "Cerebras", "CEREBRAS_API_KEY"},
	{"fireworks", "Fireworks", "FIREWORKS_API_KEY"},
	{"huggingface", "Hugging Face", "HF_TOKEN"},
	{"vercel-ai-gateway", "Vercel AI Gateway", "AI_GATEWAY_API_KEY"},
	{"zai", "ZAI", "ZAI_API_KEY"},
	{"minimax", "MiniMax", "MINIMAX_API_KEY"},
	{"kimi-coding", "Kimi For Coding", "KIMI_API_KEY"},
}

// CloudProviderByID finds a provider of CloudProviders.
func CloudProviderByID(id string) (CloudProvider, bool) {
	for _, p := range CloudProviders {
		if p.ID == id {
			return p, true
		}
	}
	return CloudProvider{}, false
}

// Package redacttest holds secrets of many kinds, each in the context an
// agent's session would show it, for tests that plant them and check
// that none is stored. The values are made up and grant nothing.
package redacttest

// Secret is one planted secret.
type Secret struct {
	Kind string
	// Value is the secret itself: it must appear nowhere after redaction.
	Value string
	// Text is a line that holds Value as a session would.
	Text string
}

// Secrets are at least 25 kinds of secret.
var Secrets = []Secret{
	{"aws access key id", "AKIAZ7QRT3LMX4KD2WPB", "aws configure set aws_access_key_id AKIAZ7QRT3LMX4KD2WPB"},
	{"aws secret access key", "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", "export AWS_SECRET_ACCESS_KEY=q8Vd2kR7tLm4Xp9Zc1Nb6Hf3Jw5Ys0Ge8Ta2UiOo"},
	{"github classic token", "ghp_R4nd0mT0k3nV4lu3sXq9Lm2Kp7Zc8Vb1Nd6Hf", "git clone https://ghp_R4nd0mT0k3nV4lu3sXq9Lm2Kp7Zc8Vb1Nd6Hf@github.com/acme/app.git"},
	{"github fine-grained token", "github_pat_11AZQ3KXA0rT8pLm4Vd2Kc_Xq9Zb1Nd6Hf3Jw5Ys0Ge8Ta2UiOoR4nd0mT0k3nV4lu3sLm2Kp7Zc8Vqb1", "GH_TOKEN=github_pat_11AZQ3KXA0rT8pLm4Vd2Kc_Xq9Zb1Nd6Hf3Jw5Ys0Ge8Ta2UiOoR4nd0mT0k3nV4lu3sLm2Kp7Zc8Vqb1 gh pr list"},
	{"gitlab personal token", "glpat-Xq9Lm2Kp7Zc8Vb1Nd6Hf", "glab auth login --hostname gitlab.com --stdin <<< glpat-Xq9Lm2Kp7Zc8Vb1Nd6Hf"},
	{"stripe secret key", "sk_live_51Hx9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8Ta2Ui", "curl https://api.stripe.com/v1/charges -u sk_live_51Hx9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8Ta2Ui:"},
	{"slack bot token", "xoxb-2847561930-4829105736-Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8", "SLACK=xoxb-2847561930-4829105736-Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8 ./notify.sh"},
	{"slack webhook", "https://hooks.slack.com/services/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", "curl -X POST https://hooks.slack.com/services/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 -d @msg.json"},
	{"openai project key", "sk-proj-Xq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8Ta2UiOoR4nd0mT0k3nT3BlbkFJ", "OPENAI_API_KEY=sk-proj-Xq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8Ta2UiOoR4nd0mT0k3nT3BlbkFJ python run.py"},
	{"anthropic key", "sk-ant-api03-Xq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8Ta2UiOoR4nd0mT0k3n-AbCdEfGhAA", "claude --api-key sk-ant-api03-Xq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8Ta2UiOoR4nd0mT0k3n-AbCdEfGhAA"},
	{"google api key", "AIzaSyXq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8T", "curl 'https://maps.googleapis.com/maps/api/geocode/json?address=x&key=AIzaSyXq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8T'"},
	{"hugging face token", "hf_Xq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8TaUi", "huggingface-cli login --token hf_Xq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8TaUi"},
	{"sendgrid key", "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", "export SENDGRID=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"},
	{"npm token", "npm_Xq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8Ta2Ui", "echo //registry.npmjs.org/:_authToken=npm_Xq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8Ta2Ui > .npmrc"},
	{"pypi token", "pypi-AgEIcHlwaS5vcmcCJDXq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8Ta2UiOoR4nd0mT0k3nV4lu3sLm2Kp7Zc8Vqb1", "twine upload -u __token__ -p pypi-AgEIcHlwaS5vcmcCJDXq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8Ta2UiOoR4nd0mT0k3nV4lu3sLm2Kp7Zc8Vqb1 dist/*"},
	{"twilio api key", "SK4f9e2a7c1b8d3e6f0a5c9b2d7e1f4a8c", "twilio api:core:messages:create --api-key SK4f9e2a7c1b8d3e6f0a5c9b2d7e1f4a8c"},
	{"digitalocean token", "dop_v1_4f9e2a7c1b8d3e6f0a5c9b2d7e1f4a8c4f9e2a7c1b8d3e6f0a5c9b2d7e1f4a8c", "doctl auth init -t dop_v1_4f9e2a7c1b8d3e6f0a5c9b2d7e1f4a8c4f9e2a7c1b8d3e6f0a5c9b2d7e1f4a8c"},
	{"shopify access token", "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", "curl -H 'X-Shopify-Access-Token: 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' https://shop.example/admin"},
	{"private key block", "MIIEowIBAAKCAQEAxq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8Ta2UiOoR4nd0mT0k3n", "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAxq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8Ta2UiOoR4nd0mT0k3n\n-----END RSA PRIVATE KEY-----"},
	{"jwt", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTQyIiwiYWRtaW4iOnRydWV9.Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8Ta2UiOoR4nd0mT0k3n", "curl -H 'Cookie: session=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTQyIiwiYWRtaW4iOnRydWV9.Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8Ta2UiOoR4nd0mT0k3n' localhost:8080"},
	{"basic auth header", "YWRtaW46czNjcjN0LXBhc3M=", "curl -H 'Authorization: Basic YWRtaW46czNjcjN0LXBhc3M=' https://ci.internal/api"},
	{"bearer header", "opaqueB3arerT0ken0123456789", "curl -H \"Authorization: Bearer opaqueB3arerT0ken0123456789\" https://api.internal/v1"},
	{"mysql -p password", "Tr0ub4dor3xyz", "mysql -u root -pTr0ub4dor3xyz -h db.internal shop"},
	{"--password argument", "hunter2-Corral", "psql-wrapper --user admin --password hunter2-Corral --db prod"},
	{"--password= argument", "Sup3rS3cr3t!", "deploy --password=Sup3rS3cr3t! --env prod"},
	{"url query token", "qT7mK2pX9vL4nR8w", "curl 'https://gitlab.internal/api/v4/projects?private_token=qT7mK2pX9vL4nR8w&per_page=100'"},
	{"url userinfo password", "p4ssw0rd-in-url", "git clone https://deploy:p4ssw0rd-in-url@git.internal/app.git"},
	{"sshpass password", "R00tPa55word", "sshpass -p R00tPa55word ssh root@10.0.0.5 uptime"},
	{"curl user password", "c0rp-s3cret", "curl -u alice:c0rp-s3cret https://nexus.internal/repo"},
	{"password env assignment", "db-Pa55-w0rd-42", "DATABASE_PASSWORD=db-Pa55-w0rd-42 npm run migrate"},
	{"gitlab token header", "Xq9Lm2Kp7Zc8Vb1Nd6Hf", "curl --header 'PRIVATE-TOKEN: Xq9Lm2Kp7Zc8Vb1Nd6Hf' https://gitlab.internal/api/v4/user"},
}

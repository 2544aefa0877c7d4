// Package secrettest holds secrets of many kinds, each in the context an
// agent's session would show it, for tests that plant them and check
// that none is stored. The values are made up and grant nothing.
package secrettest

// Secret is one planted secret.
type Secret struct {
	Kind string
	// Value is the secret itself: it must appear nowhere after redaction.
	Value string
	// Text is a line that holds Value as a session would.
	Text string
}

// Secrets are at least 42 kinds of secret.
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
	{"azure storage connection string", "Zm9vYmFyYmF6cXV4cXV1eDEyMzQ1Njc4OTBhYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5eg==", "az storage blob list --connection-string \"DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=Zm9vYmFyYmF6cXV4cXV1eDEyMzQ1Njc4OTBhYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5eg==;EndpointSuffix=core.windows.net\" -c logs"},
	{"azure client secret", "Wx18Q~Xq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8Ta2", "az ad sp credential reset printed Wx18Q~Xq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8Ta2 for the app"},
	{"azure sas signature", "Xq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8%3D", "azcopy copy 'https://acme.blob.core.windows.net/c?sv=2022-11-02&ss=b&sig=Xq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8%3D' ./out"},
	{"redis-cli -a password", "R3d1sP4ss-w0rd", "redis-cli -h cache.internal -a R3d1sP4ss-w0rd ping"},
	{"docker login -p password", "D0ck3rHubP4ss", "docker login -u deploy -p D0ck3rHubP4ss registry.example.com"},
	{"--password-stdin fed by echo", "St4d1nPa55w0rd", "echo 'St4d1nPa55w0rd' | docker login --password-stdin -u ci ghcr.io"},
	{"sudo -S fed by echo", "Sud0Pa55w0rd", "echo 'Sud0Pa55w0rd' | sudo -S pacman -Syu --noconfirm"},
	{"sudo -S fed by printf, options joined", "pr1ntfSud0", `printf '%s\n' pr1ntfSud0 | sudo -kS -u root systemctl restart nginx`},
	{"sudo -S from a here-string", "h3reStr1ngPw", "sudo -S apt-get update <<< h3reStr1ngPw"},
	{"url password holding a slash", "abc/def+G8h", "git clone https://deploy:abc/def+G8h@git.internal/app.git"},
	{"postgres url", "pg-Pa55w0rd-7", "psql postgresql://app:pg-Pa55w0rd-7@db.internal:5432/shop -c 'select 1'"},
	{"mongodb url", "M0ng0-s3cret", "mongosh \"mongodb+srv://admin:M0ng0-s3cret@cluster0.abcde.mongodb.net/test\""},
	{"redis url with no user", "R3d1sUrlPw9", "redis-cli -u redis://:R3d1sUrlPw9@cache.internal:6379 info"},
	{"json password field", "J50n-Pa55-w0rd", "curl -X POST https://api.internal/login -d '{\"user\":\"admin\",\"password\":\"J50n-Pa55-w0rd\"}'"},
	{"hugging face token with digits", "hf_4f9e2a7c1b8d3e6f0a5c9b2d7e1f4a8c9d", "python -c \"from huggingface_hub import login; login('hf_4f9e2a7c1b8d3e6f0a5c9b2d7e1f4a8c9d')\""},
	{"helm --password", "H3lmR3p0-pw", "helm repo add acme https://charts.acme.io --username ci --password H3lmR3p0-pw"},
	{"mysqldump -p quoted", "Dump-Pa55!", "mysqldump -u root -p'Dump-Pa55!' shop > shop.sql"},
	{"vault token", "hvs.CAESIXq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8Ta2UiOoR4nd0mT0k3nGh4KHGh2cy5Xq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8Ta2UiOo", "vault login hvs.CAESIXq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8Ta2UiOoR4nd0mT0k3nGh4KHGh2cy5Xq9Lm2Kp7Zc8Vb1Nd6Hf3Jw5Ys0Ge8Ta2UiOo"},
	{"twilio auth token", "9d1c7b3a5e2f8d4c6b0a9e7f3d1c5b8a", "curl -X POST https://api.twilio.com/2010-04-01/Accounts/AC4f9e2a7c1b8d3e6f0a5c9b2d7e1f4a8c/Messages.json -u AC4f9e2a7c1b8d3e6f0a5c9b2d7e1f4a8c:9d1c7b3a5e2f8d4c6b0a9e7f3d1c5b8a"},
	{"sendgrid key in a header", "SG.Kp7Zc8Vb1Nd6Hf3Jw5Ys0G.e8Ta2UiOoR4nd0mT0k3nV4lu3sLm2Kp7Zc8VqXq9Lm2Kp7", "curl -H 'Authorization: Bearer SG.Kp7Zc8Vb1Nd6Hf3Jw5Ys0G.e8Ta2UiOoR4nd0mT0k3nV4lu3sLm2Kp7Zc8VqXq9Lm2Kp7' https://api.sendgrid.com/v3/mail/send"},
}

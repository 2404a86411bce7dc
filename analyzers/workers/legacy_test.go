//go:build ignore

package workers

import (
	"strings"
	"testing"
)

// legacyHead: imports at lines 1-4, a blank line; the next line is 6.
const legacyHead = `from typing import Literal, Optional
from pydantic import field_validator, model_validator, validator
from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

`

const legacyApp = "resources_servers/quiz/app.py"

func TestLegacyWorkerRefusal(t *testing.T) {
	cases := []mwCase{
		{
			name: "num_workers: Literal[1] on the config class",
			files: map[string]string{legacyApp: legacyHead + `class QuizConfig(BaseResourcesServerConfig):
    num_workers: Literal[1] = 1


class QuizServer(SimpleResourcesServer):
    config: QuizConfig
`},
			want: []mwWant{{at: legacyApp + ":7:5", contains: []string{
				"QuizConfig declares `num_workers: Literal[1]`",
				"override multiple_workers_unsupported_reason() to return why the server cannot run with several workers",
			}, related: []string{}}},
		},
		{
			name: "Optional[typing.Literal[1]] counts, and the existing override is named",
			files: map[string]string{legacyApp: legacyHead + `import typing


class QuizConfig(BaseResourcesServerConfig):
    num_workers: Optional[typing.Literal[1]] = None


class QuizServer(SimpleResourcesServer):
    config: QuizConfig

    def multiple_workers_unsupported_reason(self):
        return "quiz state is in memory"
`},
			want: []mwWant{{at: legacyApp + ":10:5", contains: []string{
				"QuizServer.multiple_workers_unsupported_reason() (already overridden) returns the reason", "make sure it always does",
			}, related: []string{legacyApp + ":16"}}},
		},
		{
			name: "field validator of num_workers raising on the value",
			files: map[string]string{legacyApp: legacyHead + `class QuizConfig(BaseResourcesServerConfig):
    @field_validator("num_workers", mode="after")
    @classmethod
    def one_worker(cls, v):
        if v is not None and v > 1:
            raise ValueError("quiz supports one worker")
        return v


class QuizServer(SimpleResourcesServer):
    config: QuizConfig
`},
			want: []mwWant{{at: legacyApp + ":11:13", contains: []string{
				"QuizConfig.one_worker, a validator of num_workers, refuses the worker count by raising",
				"override multiple_workers_unsupported_reason() to return the reason under the same condition (None otherwise)",
			}}},
		},
		{
			name: "v1 validator asserting on the value",
			files: map[string]string{legacyApp: legacyHead + `class QuizConfig(BaseResourcesServerConfig):
    @validator("num_workers")
    def one_worker(cls, value):
        assert value in (None, 1), "one worker"
        return value


class QuizServer(SimpleResourcesServer):
    config: QuizConfig
`},
			want: []mwWant{{at: legacyApp + ":9:9", contains: []string{"a validator of num_workers"}}},
		},
		{
			name: "model validator raising on num_workers",
			files: map[string]string{legacyApp: legacyHead + `class QuizConfig(BaseResourcesServerConfig):
    @model_validator(mode="after")
    def check(self):
        if self.judge_url is None:
            raise ValueError("judge_url is required")
        if (self.num_workers or 1) > 1:
            raise ValueError("quiz supports one worker")
        return self


class QuizServer(SimpleResourcesServer):
    config: QuizConfig
`},
			want: []mwWant{{at: legacyApp + ":12:13", contains: []string{"QuizConfig.check, a model validator"}}},
		},
		{
			name: "model_post_init raising on the worker count",
			files: map[string]string{legacyApp: legacyHead + `class QuizServer(SimpleResourcesServer):
    def model_post_init(self, context):
        if self.config.num_workers and self.config.num_workers > 1:
            raise RuntimeError("quiz supports one worker")
        self._load()
`},
			want: []mwWant{{at: legacyApp + ":9:13", contains: []string{
				"QuizServer.model_post_init raises on the worker count",
			}}},
		},
		{
			name: "config class from another module, through the config: annotation",
			files: map[string]string{
				"resources_servers/quiz/settings.py": `from typing import Literal
from nemo_gym.base_resources_server import BaseResourcesServerConfig


class QuizConfig(BaseResourcesServerConfig):
    num_workers: Literal[1] = 1
`,
				legacyApp: `from nemo_gym.base_resources_server import SimpleResourcesServer
from resources_servers.quiz.settings import QuizConfig


class QuizServer(SimpleResourcesServer):
    config: QuizConfig
`},
			want: []mwWant{{at: "resources_servers/quiz/settings.py:6:5"}},
		},
		{
			name: "a check shared by two entrypoints is reported once",
			files: map[string]string{
				"resources_servers/quiz/base.py": `from nemo_gym.base_resources_server import SimpleResourcesServer


class QuizBase(SimpleResourcesServer):
    def model_post_init(self, context):
        assert self.config.num_workers in (None, 1)
`,
				legacyApp:                         "from resources_servers.quiz.base import QuizBase\n\n\nclass QuizServer(QuizBase):\n    pass\n",
				"resources_servers/trivia/app.py": "from resources_servers.quiz.base import QuizBase\n\n\nclass TriviaServer(QuizBase):\n    pass\n",
			},
			want: []mwWant{{at: "resources_servers/quiz/base.py:6:9"}},
		},
		// Look-alikes that must not be reported.
		{
			name: "Literal[1] on an unrelated field, num_workers of another type",
			files: map[string]string{legacyApp: legacyHead + `class QuizConfig(BaseResourcesServerConfig):
    max_rounds: Literal[1] = 1
    num_workers: Optional[int] = None
    mode: Literal[1, 2] = 1


class QuizServer(SimpleResourcesServer):
    config: QuizConfig
`},
		},
		{
			name: "validator on another field",
			files: map[string]string{legacyApp: legacyHead + `class QuizConfig(BaseResourcesServerConfig):
    @field_validator("temperature")
    @classmethod
    def low(cls, v):
        if v > 1:
            raise ValueError("temperature must be at most 1")
        return v


class QuizServer(SimpleResourcesServer):
    config: QuizConfig
`},
		},
		{
			name: "validator of several fields whose guard does not name num_workers",
			files: map[string]string{legacyApp: legacyHead + `class QuizConfig(BaseResourcesServerConfig):
    @field_validator("num_workers", "num_rounds")
    @classmethod
    def positive(cls, v):
        if v is not None and v < 0:
            raise ValueError("must be positive")
        return v


class QuizServer(SimpleResourcesServer):
    config: QuizConfig
`},
		},
		{
			name: "model validator and model_post_init raising on other conditions",
			files: map[string]string{legacyApp: legacyHead + `class QuizConfig(BaseResourcesServerConfig):
    @model_validator(mode="after")
    def check(self):
        if self.judge_url is None:
            raise ValueError("judge_url is required")
        return self


class QuizServer(SimpleResourcesServer):
    config: QuizConfig

    def model_post_init(self, context):
        if not self.config.data_path:
            raise RuntimeError("data_path is required")
        workers = self.config.num_workers
`},
		},
		{
			name: "the framework's classes and unrelated modules are not checked",
			files: map[string]string{
				"nemo_gym/base_resources_server.py": `from typing import Literal


class BaseServerConfig:
    num_workers: Literal[1] = 1


class SimpleResourcesServer:
    pass
`,
				"resources_servers/quiz/unused.py": "from typing import Literal\n\n\nclass Old:\n    num_workers: Literal[1] = 1\n",
				legacyApp:                          "from nemo_gym.base_resources_server import SimpleResourcesServer\n\n\nclass QuizServer(SimpleResourcesServer):\n    pass\n",
			},
		},
	}
	mwCheck(t, cases, LegacyWorkerRefusal, runLegacyRefusal)
}

func TestLegacyLiteral1(t *testing.T) {
	for ann, want := range map[string]bool{
		"Literal[1]": true, "typing.Literal[1]": true, "Optional[Literal[1]]": true, "Literal[1] | None": true,
		"Union[Literal[1], None]": true, "Literal[ 1 ]": true,
		"Literal[1, 2]": false, "int": false, "Literal[2]": false, "Literal['1']": false, "List[Literal[1]]": false,
	} {
		if got := legacyLiteral1(ann); got != want {
			t.Errorf("legacyLiteral1(%q) = %v, want %v", ann, got, want)
		}
	}
	if !legacyMentions("self.config.num_workers > 1", []string{"num_workers"}) || legacyMentions("self.max_num_workers_x > 1", []string{"num_workers"}) {
		t.Error("legacyMentions does not match whole identifiers")
	}
	for _, h := range []string{"## What it does", "## Why it matters", "## Example", "## How to fix"} {
		if !strings.Contains(LegacyWorkerRefusal.Doc, h) {
			t.Errorf("GL103 doc lacks %q", h)
		}
	}
}

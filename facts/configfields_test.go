package facts_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
)

// TestConfigFields: a server's config class is the one its `config:`
// annotation names (inherited from a base when the server does not
// declare it); its fields are the annotated class-body names of it and its
// bases, framework classes included, the subclass's annotation winning;
// numeric are int, float, Optional, unions of them with None, Annotated,
// pydantic's constrained ints, `int | None`. ClassVars are not fields. A
// base from outside the repository makes the fields incomplete.
func TestConfigFields(t *testing.T) {
	f := build(t, map[string]string{
		"nemo_gym/cfg_types.py": `from typing import ClassVar, Optional

from pydantic import BaseModel


class BaseServerConfig(BaseModel):
    host: str
    port: int
    num_workers: Optional[int] = None
    label: int = 0
`,
		"resources_servers/s/app.py": header + `
from typing import Annotated, ClassVar, Union
import typing

from pydantic import Field, PositiveInt, conint

from nemo_gym.cfg_types import BaseServerConfig


class SConfig(BaseServerConfig):
    label: str = "x"
    steps: PositiveInt = 1
    window: Annotated[int, Field(ge=1)] = 2
    ratio: float | None = None
    either: Union[int, float, None] = None
    mixed: Union[int, str] = 0
    typed: typing.Optional[float] = None
    bounded: conint(ge=0) = 0
    forward: "int" = 0
    KIND: ClassVar[int] = 3


class Base(SimpleResourcesServer):
    config: SConfig


class S(Base):
    pass


class Other(SimpleResourcesServer):
    pass
`,
		"resources_servers/t/app.py": `from somewhere import ExternalConfig

from nemo_gym.base_resources_server import SimpleResourcesServer


class TConfig(ExternalConfig):
    n: int = 0


class T(SimpleResourcesServer):
    config: TConfig
`,
	})
	v := f.View()
	s := server(t, f)
	c, ok := facts.ServerConfigClass(v, s)
	if !ok || c.Class.Name != "SConfig" {
		t.Fatalf("config class of S: %v %v", ok, c.Class)
	}
	fields := facts.ConfigFieldsOf(v, c)
	var numeric, other []string
	for k, kind := range fields.Fields {
		if kind == facts.FieldNumeric {
			numeric = append(numeric, k)
		} else {
			other = append(other, k)
		}
	}
	slices.Sort(numeric)
	slices.Sort(other)
	if got, want := strings.Join(numeric, " "), "bounded either num_workers port ratio steps typed window"; got != want {
		t.Errorf("numeric fields %q, want %q", got, want)
	}
	if got, want := strings.Join(other, " "), "forward host label mixed"; got != want {
		t.Errorf("other fields %q, want %q", got, want)
	}
	if !fields.Complete {
		t.Error("SConfig's fields are incomplete")
	}

	m, err := v.Module("resources_servers/t/app.py")
	if err != nil {
		t.Fatal(err)
	}
	var tcls gym.ClassRef
	for _, k := range m.Classes {
		if k.Name == "T" {
			tcls = gym.ClassRef{Module: m, Class: k}
		}
	}
	tc, ok := facts.ServerConfigClass(v, tcls)
	if !ok {
		t.Fatal("no config class of T")
	}
	tf := facts.ConfigFieldsOf(v, tc)
	if tf.Complete || tf.Fields["n"] != facts.FieldNumeric {
		t.Errorf("TConfig: %+v", tf)
	}
}

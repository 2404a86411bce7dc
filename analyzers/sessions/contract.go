package sessions

import (
	"fmt"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/gym"
)

// The help of the rules that name framework classes, in the terms of the
// repository's framework: a framework found without the class (the rule
// then runs under --contract latest, or a hand-rolled equivalent is the
// only way) gets the hand-rolled advice, with the reason.

// lacks returns "nemo_gym at ./nemo_gym" when the repository's framework
// was read and does not have the fact, else "".
func lacks(v *gym.View, f contract.Fact) string {
	fw := v.Options.Framework
	if !fw.Lacks(f) {
		return ""
	}
	return fmt.Sprintf("%s at %s", fw.Package, fw.Display())
}

// fenceHelp says how to fence a closed session: latest with the
// framework's fences, else prefix and the hand-rolled way.
func fenceHelp(v *gym.View, latest, prefix string) string {
	if fw := lacks(v, contract.SessionFences); fw != "" {
		return prefix + "record body.resources_session_id as closed (a set, or a dict of close times, of the server's) and have seed_session refuse a closed id with HTTPException(status_code=409) (" + fw + " has no ResourcesSessionFences)"
	}
	return latest
}

// lockHelp says how to serialize a seed and a close; held is the framework
// form.
func lockHelp(v *gym.View, held string) string {
	if fw := lacks(v, contract.SessionLocks); fw != "" {
		return "hold an asyncio.Lock of the session's (a dict of locks by session id) from the read to the write, in the seed and in the close (" + fw + " has no ResourcesSessionLocks)"
	}
	return held
}

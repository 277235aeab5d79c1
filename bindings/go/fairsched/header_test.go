package fairsched_test

import (
	"go/build"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
)

// cgo already rejects, at compile time, a call that disagrees with the header. These tests
// catch what it cannot: an export of the header the package never calls, and an export that
// takes a pointer without the cgo directives that keep Go's out-parameters on the stack.

// The header the package compiles against.
const header = "../../../include/fairsched.h"

// testingExport is the export only the test build calls (testing_panic.go, behind the build
// tag fairschedtesting): programs never reference it.
const testingExport = "fairsched_testing_panic"

// export is a function the header declares: its name and its parameters.
type export struct {
	name   string
	params []string // "const double *cluster", "size_t cluster_len", ...
}

// headerExports returns the functions the header declares, in its order.
func headerExports(t *testing.T) []export {
	t.Helper()
	text, err := os.ReadFile(header)
	must(t, err)
	// Comments may quote declarations: drop them first.
	code := regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`).ReplaceAllString(string(text), "")
	declaration := regexp.MustCompile(`(?m)^[a-z_][a-z0-9_ ]*[ *](fairsched_\w+)\(([^)]*)\);`)
	var exports []export
	for _, match := range declaration.FindAllStringSubmatch(code, -1) {
		var params []string
		for _, param := range strings.Split(match[2], ",") {
			if param = strings.Join(strings.Fields(param), " "); param != "void" {
				params = append(params, param)
			}
		}
		exports = append(exports, export{name: match[1], params: params})
	}
	if len(exports) < 40 {
		t.Fatalf("only %d exports found in %s", len(exports), header)
	}
	return exports
}

// packageSource returns the package's non-test Go sources, concatenated, as the go tool builds
// them with the build tags given.
func packageSource(t *testing.T, tags ...string) string {
	t.Helper()
	context := build.Default
	context.CgoEnabled = true
	context.BuildTags = tags
	pkg, err := context.ImportDir(".", 0)
	must(t, err)
	var source strings.Builder
	for _, name := range slices.Concat(pkg.GoFiles, pkg.CgoFiles) {
		text, err := os.ReadFile(filepath.Join(pkg.Dir, name))
		must(t, err)
		source.Write(text)
	}
	return source.String()
}

// ABIVersion is the library's version, which the package checked against the header's at init.
func TestABIVersion(t *testing.T) {
	text, err := os.ReadFile(header)
	must(t, err)
	match := regexp.MustCompile(`(?m)^#define FAIRSCHED_ABI_VERSION (\d+)$`).FindSubmatch(text)
	if match == nil {
		t.Fatalf("no FAIRSCHED_ABI_VERSION in %s", header)
	}
	version, err := strconv.ParseUint(string(match[1]), 10, 32)
	must(t, err)
	expect(t, "ABI version", fairsched.ABIVersion(), uint32(version))
}

// Every export of the header is called (C.fairsched_x) by the package as programs build it,
// except the testing export, which only the build with the tag fairschedtesting calls.
func TestEveryExportIsCalled(t *testing.T) {
	program, tested := packageSource(t), packageSource(t, "fairschedtesting")
	called := func(source, name string) bool { return strings.Contains(source, "C."+name+"(") }
	for _, e := range headerExports(t) {
		switch {
		case e.name == testingExport:
			if called(program, e.name) || !called(tested, e.name) {
				t.Errorf("%s: called by programs %v, by the tagged build %v; want false, true",
					e.name, called(program, e.name), called(tested, e.name))
			}
		case !called(program, e.name):
			t.Errorf("%s: declared in %s but never called by the package", e.name, header)
		}
	}
}

// Every export that takes a pointer besides its object's handle (an out-parameter, an array)
// has `#cgo noescape` and `#cgo nocallback` (none keeps a pointer or calls back into Go), so
// that Go can pass it stack memory; and every such directive names an export.
func TestPointerExportsAreNoescape(t *testing.T) {
	text, err := os.ReadFile("cgo.go")
	must(t, err)
	directives := map[string][]string{} // directive -> exports named
	for _, match := range regexp.MustCompile(`(?m)^#cgo (noescape|nocallback) (\w+)$`).FindAllStringSubmatch(string(text), -1) {
		directives[match[1]] = append(directives[match[1]], match[2])
	}
	handle := regexp.MustCompile(`^(const )?fairsched_(cfq|drf_queue|hai|paf|drr_timeline|drr_predictor) \*`)
	var declared []string
	for _, e := range headerExports(t) {
		declared = append(declared, e.name)
		takesPointer := slices.ContainsFunc(e.params, func(param string) bool {
			return strings.Contains(param, "*") && !handle.MatchString(param)
		})
		for _, directive := range []string{"noescape", "nocallback"} {
			if has := slices.Contains(directives[directive], e.name); has != takesPointer {
				t.Errorf("%s: takes a pointer %v, #cgo %s %v", e.name, takesPointer, directive, has)
			}
		}
	}
	for directive, names := range directives {
		for _, name := range names {
			if !slices.Contains(declared, name) {
				t.Errorf("#cgo %s %s: no such export in %s", directive, name, header)
			}
		}
	}
}

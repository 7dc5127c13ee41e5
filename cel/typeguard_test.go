package cel

import (
	"testing"

	"github.com/google/cel-go/common/decls"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// TestAssignableAgreesWithCELGo: assignable is certain only where cel-go's
// own guard agrees, and certain in the cases the library's calls meet.
func TestAssignableAgreesWithCELGo(t *testing.T) {
	a := types.DefaultTypeAdapter
	strDyn := types.NewMapType(types.StringType, types.DynType)
	listStr := types.NewListType(types.StringType)
	listDyn := types.NewListType(types.DynType)
	vals := map[string]ref.Val{
		"string":          types.String("x"),
		"int":             types.Int(1),
		"null":            types.NullValue,
		"double":          types.Double(1),
		"empty map":       types.NewRefValMap(a, map[ref.Val]ref.Val{}),
		"string-key map":  types.NewRefValMap(a, map[ref.Val]ref.Val{types.String("a"): types.Int(1), types.String("b"): types.String("c")}),
		"int-key map":     types.NewRefValMap(a, map[ref.Val]ref.Val{types.Int(1): types.Int(1)}),
		"mixed-key map":   types.NewRefValMap(a, map[ref.Val]ref.Val{types.Int(1): types.Int(1), types.String("a"): types.Int(1)}),
		"native map":      a.NativeToValue(map[string]any{"a": 1}),
		"string list":     types.NewStringList(a, []string{"a", "b"}),
		"int list":        a.NativeToValue([]any{1, "a"}),
		"empty list":      types.NewRefValList(a, nil),
		"error":           types.NewErr("boom"),
		"optional string": types.OptionalOf(types.String("x")),
	}
	typs := map[string]*types.Type{
		"dyn": types.DynType, "string": types.StringType, "int": types.IntType, "null": types.NullType,
		"map(string, dyn)": strDyn, "list(string)": listStr, "list(dyn)": listDyn,
		"optional(dyn)": types.NewOptionalType(types.DynType), "T": types.NewTypeParamType("T"),
	}
	// What assignable must be certain of: the library's own signatures.
	want := map[[2]string]bool{
		{"dyn", "string"}: true, {"dyn", "string-key map"}: true, {"dyn", "native map"}: true,
		{"string", "string"}: true, {"int", "int"}: true,
		{"map(string, dyn)", "string-key map"}: true, {"map(string, dyn)", "empty map"}: true,
		{"list(string)", "string list"}: true, {"list(dyn)", "int list"}: true, {"list(string)", "empty list"}: true,
		{"T", "int"}: true,
	}
	for tn, typ := range typs {
		for vn, v := range vals {
			got := assignable(typ, v)
			if got && (types.IsUnknownOrError(v) || !typ.IsAssignableRuntimeType(v)) {
				t.Errorf("assignable(%s, %s) = true; cel-go's guard says no", tn, vn)
			}
			if want[[2]string{tn, vn}] && !got {
				t.Errorf("assignable(%s, %s) = false, want true", tn, vn)
			}
		}
	}
}

// TestFastBindingsSameResults: the bindings with the fast guard give what
// cel-go's guarded ones give, a mismatch's error included.
func TestFastBindingsSameResults(t *testing.T) {
	fn, err := decls.NewFunction("f",
		decls.Overload("f_string_map", []*types.Type{types.StringType, types.NewMapType(types.StringType, types.DynType)}, types.StringType,
			decls.BinaryBinding(func(a, b ref.Val) ref.Val { return types.String(string(a.(types.String)) + "!") })),
	)
	if err != nil {
		t.Fatal(err)
	}
	fast, err := fastBindings(fn)
	if err != nil {
		t.Fatal(err)
	}
	guarded, err := fn.Bindings()
	if err != nil {
		t.Fatal(err)
	}
	a := types.DefaultTypeAdapter
	m := types.NewRefValMap(a, map[ref.Val]ref.Val{types.String("k"): types.Int(1)})
	bad := types.NewRefValMap(a, map[ref.Val]ref.Val{types.Int(1): types.Int(1)})
	cases := [][2]ref.Val{{types.String("x"), m}, {types.Int(1), m}, {types.String("x"), bad}, {types.String("x"), types.String("y")}}
	for i, c := range cases {
		got := fast[0].Binary(c[0], c[1])
		want := guarded[0].Binary(c[0], c[1])
		if types.IsError(want) != types.IsError(got) || (types.IsError(want) && got.(*types.Err).Error() != want.(*types.Err).Error()) ||
			(!types.IsError(want) && got.Equal(want) != types.True) {
			t.Errorf("case %d: fast %v, guarded %v", i, got, want)
		}
	}
}

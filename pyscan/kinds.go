package pyscan

import (
	"fmt"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	python "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

// kind is a named node kind of the Python grammar that the walker tells
// apart; tok is an anonymous token it reads (operators, keywords).
type (
	kind uint8
	tok  uint8
)

const (
	kOther kind = iota
	kModule
	kBlock
	kExpressionStatement
	kAssignment
	kAugmentedAssignment
	kImportStatement
	kImportFromStatement
	kFutureImportStatement
	kAliasedImport
	kDottedName
	kRelativeImport
	kImportPrefix
	kWildcardImport
	kClassDefinition
	kFunctionDefinition
	kDecoratedDefinition
	kDecorator
	kIfStatement
	kElifClause
	kElseClause
	kTryStatement
	kExceptClause
	kExceptGroupClause
	kFinallyClause
	kWithStatement
	kWithClause
	kWithItem
	kAsPattern
	kAsPatternTarget
	kForStatement
	kWhileStatement
	kMatchStatement
	kCaseClause
	kIfClause
	kRaiseStatement
	kReturnStatement
	kDeleteStatement
	kAssertStatement
	kGlobalStatement
	kNonlocalStatement
	kPassStatement
	kBreakStatement
	kContinueStatement
	kTypeAliasStatement
	kPrintStatement
	kExecStatement
	kExpressionList
	kPatternList
	kTuplePattern
	kListPattern
	kTuple
	kList
	kSet
	kDictionary
	kPair
	kParenthesizedExpression
	kListSplatPattern
	kDictionarySplatPattern
	kListSplat
	kDictionarySplat
	kParenthesizedListSplat
	kAwait
	kYield
	kCall
	kAttribute
	kSubscript
	kSlice
	kIdentifier
	kArgumentList
	kKeywordArgument
	kNamedExpression
	kLambda
	kLambdaParameters
	kParameters
	kTypedParameter
	kDefaultParameter
	kTypedDefaultParameter
	kPositionalSeparator
	kKeywordSeparator
	kComment
	kString
	kConcatenatedString
	kStringStart
	kStringContent
	kStringEnd
	kInterpolation
	kFormatSpecifier
	kFormatExpression
	kComparisonOperator
	kNotOperator
	kBooleanOperator
	kBinaryOperator
	kUnaryOperator
	kConditionalExpression
	kType
	kGenericType
	kTypeParameter
	kMemberType
	kUnionType
	kSplatType
	kListComprehension
	kSetComprehension
	kDictionaryComprehension
	kGeneratorExpression
	kForInClause
	kInteger
	kFloat
	kTrue
	kFalse
	kNone
	kEllipsis
	kError
)

var kindNames = map[string]kind{
	"module":                   kModule,
	"block":                    kBlock,
	"expression_statement":     kExpressionStatement,
	"assignment":               kAssignment,
	"augmented_assignment":     kAugmentedAssignment,
	"import_statement":         kImportStatement,
	"import_from_statement":    kImportFromStatement,
	"future_import_statement":  kFutureImportStatement,
	"aliased_import":           kAliasedImport,
	"dotted_name":              kDottedName,
	"relative_import":          kRelativeImport,
	"import_prefix":            kImportPrefix,
	"wildcard_import":          kWildcardImport,
	"class_definition":         kClassDefinition,
	"function_definition":      kFunctionDefinition,
	"decorated_definition":     kDecoratedDefinition,
	"decorator":                kDecorator,
	"if_statement":             kIfStatement,
	"elif_clause":              kElifClause,
	"else_clause":              kElseClause,
	"try_statement":            kTryStatement,
	"except_clause":            kExceptClause,
	"except_group_clause":      kExceptGroupClause,
	"finally_clause":           kFinallyClause,
	"with_statement":           kWithStatement,
	"with_clause":              kWithClause,
	"with_item":                kWithItem,
	"as_pattern":               kAsPattern,
	"as_pattern_target":        kAsPatternTarget,
	"for_statement":            kForStatement,
	"while_statement":          kWhileStatement,
	"match_statement":          kMatchStatement,
	"case_clause":              kCaseClause,
	"if_clause":                kIfClause,
	"raise_statement":          kRaiseStatement,
	"return_statement":         kReturnStatement,
	"delete_statement":         kDeleteStatement,
	"assert_statement":         kAssertStatement,
	"global_statement":         kGlobalStatement,
	"nonlocal_statement":       kNonlocalStatement,
	"pass_statement":           kPassStatement,
	"break_statement":          kBreakStatement,
	"continue_statement":       kContinueStatement,
	"type_alias_statement":     kTypeAliasStatement,
	"print_statement":          kPrintStatement,
	"exec_statement":           kExecStatement,
	"expression_list":          kExpressionList,
	"pattern_list":             kPatternList,
	"tuple_pattern":            kTuplePattern,
	"list_pattern":             kListPattern,
	"tuple":                    kTuple,
	"list":                     kList,
	"set":                      kSet,
	"dictionary":               kDictionary,
	"pair":                     kPair,
	"parenthesized_expression": kParenthesizedExpression,
	"list_splat_pattern":       kListSplatPattern,
	"dictionary_splat_pattern": kDictionarySplatPattern,
	"list_splat":               kListSplat,
	"dictionary_splat":         kDictionarySplat,
	"parenthesized_list_splat": kParenthesizedListSplat,
	"await":                    kAwait,
	"yield":                    kYield,
	"call":                     kCall,
	"attribute":                kAttribute,
	"subscript":                kSubscript,
	"slice":                    kSlice,
	"identifier":               kIdentifier,
	"argument_list":            kArgumentList,
	"keyword_argument":         kKeywordArgument,
	"named_expression":         kNamedExpression,
	"lambda":                   kLambda,
	"lambda_parameters":        kLambdaParameters,
	"parameters":               kParameters,
	"typed_parameter":          kTypedParameter,
	"default_parameter":        kDefaultParameter,
	"typed_default_parameter":  kTypedDefaultParameter,
	"positional_separator":     kPositionalSeparator,
	"keyword_separator":        kKeywordSeparator,
	"comment":                  kComment,
	"string":                   kString,
	"concatenated_string":      kConcatenatedString,
	"string_start":             kStringStart,
	"string_content":           kStringContent,
	"string_end":               kStringEnd,
	"interpolation":            kInterpolation,
	"format_specifier":         kFormatSpecifier,
	"format_expression":        kFormatExpression,
	"comparison_operator":      kComparisonOperator,
	"not_operator":             kNotOperator,
	"boolean_operator":         kBooleanOperator,
	"binary_operator":          kBinaryOperator,
	"unary_operator":           kUnaryOperator,
	"conditional_expression":   kConditionalExpression,
	"type":                     kType,
	"generic_type":             kGenericType,
	"type_parameter":           kTypeParameter,
	"member_type":              kMemberType,
	"union_type":               kUnionType,
	"splat_type":               kSplatType,
	"list_comprehension":       kListComprehension,
	"set_comprehension":        kSetComprehension,
	"dictionary_comprehension": kDictionaryComprehension,
	"generator_expression":     kGeneratorExpression,
	"for_in_clause":            kForInClause,
	"integer":                  kInteger,
	"float":                    kFloat,
	"true":                     kTrue,
	"false":                    kFalse,
	"none":                     kNone,
	"ellipsis":                 kEllipsis,
	"ERROR":                    kError,
}

const (
	tNone tok = iota
	tAsync
	tFrom
	tColon
	tComma
	tNot
	tAnd
	tOr
	tStar
	tStarStar
	// comparison operators
	tEq
	tNotEq
	tLt
	tLtE
	tGt
	tGtE
	tIs
	tIsNot
	tIn
	tNotIn
	// binary operators (their BinOpKind is t - tAdd)
	tAdd
	tSub
	tMult
	tMatMult
	tDiv
	tFloorDiv
	tMod
	tPow
	tLShift
	tRShift
	tBitOr
	tBitXor
	tBitAnd
	tInvert
	// augmented assignment operators (their BinOpKind is t - tAddEq)
	tAddEq
	tSubEq
	tMultEq
	tMatMultEq
	tDivEq
	tFloorDivEq
	tModEq
	tPowEq
	tLShiftEq
	tRShiftEq
	tBitOrEq
	tBitXorEq
	tBitAndEq
)

var tokNames = map[string]tok{
	"async": tAsync, "from": tFrom, ":": tColon, ",": tComma, "not": tNot, "and": tAnd, "or": tOr,
	"*": tStar, "**": tStarStar,
	"==": tEq, "!=": tNotEq, "<>": tNotEq, "<": tLt, "<=": tLtE, ">": tGt, ">=": tGtE,
	"is": tIs, "is not": tIsNot, "in": tIn, "not in": tNotIn,
	"+": tAdd, "-": tSub, "@": tMatMult, "/": tDiv, "//": tFloorDiv, "%": tMod,
	"<<": tLShift, ">>": tRShift, "|": tBitOr, "^": tBitXor, "&": tBitAnd, "~": tInvert,
	"+=": tAddEq, "-=": tSubEq, "*=": tMultEq, "@=": tMatMultEq, "/=": tDivEq, "//=": tFloorDivEq,
	"%=": tModEq, "**=": tPowEq, "<<=": tLShiftEq, ">>=": tRShiftEq, "|=": tBitOrEq, "^=": tBitXorEq, "&=": tBitAndEq,
}

// field is a field of the grammar that the walker reads.
type field uint8

const (
	fNone field = iota
	fLeft
	fRight
	fType
	fOperator
	fOperators
	fFunction
	fArguments
	fObject
	fAttribute
	fValue
	fSubscript
	fName
	fBody
	fCondition
	fConsequence
	fAlternative
	fParameters
	fReturnType
	fSuperclasses
	fDefinition
	fModuleName
	fAlias
	fSubject
	fGuard
	fKey
	fArgument
	fCause
	fExpression
	numFields
)

var fieldNames = [numFields]string{
	fLeft: "left", fRight: "right", fType: "type", fOperator: "operator", fOperators: "operators",
	fFunction: "function", fArguments: "arguments", fObject: "object", fAttribute: "attribute",
	fValue: "value", fSubscript: "subscript", fName: "name", fBody: "body", fCondition: "condition",
	fConsequence: "consequence", fAlternative: "alternative", fParameters: "parameters",
	fReturnType: "return_type", fSuperclasses: "superclasses", fDefinition: "definition",
	fModuleName: "module_name", fAlias: "alias", fSubject: "subject", fGuard: "guard", fKey: "key",
	fArgument: "argument", fCause: "cause", fExpression: "expression",
}

// grammar holds the Python language and the lookup tables derived from it.
// It is built once and shared read-only by every parser.
type grammar struct {
	lang  *sitter.Language
	kinds []kind   // by node symbol id, for named symbols
	toks  []tok    // by node symbol id, for anonymous symbols
	named []bool   // by node symbol id
	names []string // by node symbol id: the kind's name in the grammar
	field []field  // by field id
}

var (
	grammarOnce sync.Once
	pyGrammar   *grammar
)

func loadGrammar() *grammar {
	grammarOnce.Do(func() {
		g := &grammar{lang: sitter.NewLanguage(python.Language())}
		n := g.lang.NodeKindCount()
		g.kinds = make([]kind, n)
		g.toks = make([]tok, n)
		g.named = make([]bool, n)
		g.names = make([]string, n)
		// Several symbol ids can share a name (aliases); map every id by name.
		for id := uint32(0); id < n; id++ {
			name := g.lang.NodeKindForId(uint16(id))
			g.names[id] = name
			g.named[id] = g.lang.NodeKindIsNamed(uint16(id))
			if g.named[id] {
				g.kinds[id] = kindNames[name]
			} else {
				g.toks[id] = tokNames[name]
			}
		}
		byName := map[string]field{}
		for f, name := range fieldNames {
			if name != "" {
				byName[name] = field(f)
			}
		}
		fc := g.lang.FieldCount()
		if fc > 255 {
			// The flat tree keeps a field id in a byte (cwalk.go).
			panic(fmt.Sprintf("pyscan: the Python grammar has %d fields, more than 255", fc))
		}
		g.field = make([]field, fc+1)
		found := map[field]bool{}
		for id := uint32(1); id <= fc; id++ {
			if f, ok := byName[g.lang.FieldNameForId(uint16(id))]; ok {
				g.field[id] = f
				found[f] = true
			}
		}
		// A field the walker reads but the grammar lacks would silently find
		// nothing: a grammar upgrade must fail loudly instead.
		for f, name := range fieldNames {
			if name != "" && !found[field(f)] {
				panic("pyscan: the Python grammar has no field " + name)
			}
		}
		pyGrammar = g
	})
	return pyGrammar
}

// kindName is the grammar's name of a node symbol ("ERROR" for an ERROR
// node), as tree-sitter's ts_node_type gives it.
func (g *grammar) kindName(id uint16) string {
	if int(id) < len(g.names) {
		return g.names[id]
	}
	if id == errorSymbol {
		return "ERROR"
	}
	return ""
}

// fieldOf maps a grammar field id to the walker's field.
func (g *grammar) fieldOf(id uint16) field {
	if int(id) < len(g.field) {
		return g.field[id]
	}
	return fNone
}

package trafilatura

var (
	listXmlListTags    = []string{"ul", "ol", "dl"}
	listXmlQuoteTags   = []string{"blockquote", "pre", "q"}
	listXmlHeadTags    = []string{"h1", "h2", "h3", "h4", "h5", "h6", "summary"}
	listXmlLbTags      = []string{"br", "hr", "lb"}
	listXmlHiTags      = []string{"em", "i", "b", "strong", "u", "kbd", "samp", "tt", "var", "sub", "sup", "mark"}
	listXmlRefTags     = []string{"a"}
	listXmlGraphicTags = []string{"img"}
	listXmlItemTags    = []string{"dd", "dt", "li"}
	listXmlCellTags    = []string{"th", "td"}
)

var (
	mapXmlListTags    = lazySet(listXmlListTags...)
	mapXmlQuoteTags   = lazySet(listXmlQuoteTags...)
	mapXmlHeadTags    = lazySet(listXmlHeadTags...)
	mapXmlLbTags      = lazySet(listXmlLbTags...)
	mapXmlHiTags      = lazySet(listXmlHiTags...)
	mapXmlRefTags     = lazySet(listXmlRefTags...)
	mapXmlGraphicTags = lazySet(listXmlGraphicTags...)
	mapXmlItemTags    = lazySet(listXmlItemTags...)
	mapXmlCellTags    = lazySet(listXmlCellTags...)
)

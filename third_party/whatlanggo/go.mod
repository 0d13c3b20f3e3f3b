module github.com/RadhiFadlillah/whatlanggo

go 1.21

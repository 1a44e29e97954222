import './roster.graphql';

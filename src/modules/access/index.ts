import './access.graphql';
